// Runs the WebAssembly command line (build/web/traincalc.js) over many argument lists in one node
// process: the module is compiled once and each run gets a fresh instance and a fresh JavaScript
// context, so runs share no state, as separate processes would not. Starting node and compiling
// the module took ~0.25 s per run, most of tests/native_vs_web.sh's time.
//   node --no-experimental-fetch tests/wasm_cli.mjs CLI_JS JOBS_FILE
// JOBS_FILE holds one job per line: a JSON array [OUT_PREFIX, arg, arg, ...]. Each run writes
// OUT_PREFIX.out (stdout), OUT_PREFIX.err (stderr) and OUT_PREFIX.rc (the exit code).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';

const [cliJs, jobsFile] = process.argv.slice(2);
if (!cliJs || !jobsFile) {
  console.error('usage: wasm_cli.mjs CLI_JS JOBS_FILE');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const script = new vm.Script(fs.readFileSync(cliJs, 'utf8'), { filename: cliJs });
const wasm = new WebAssembly.Module(fs.readFileSync(cliJs.replace(/\.js$/, '.wasm')));

// One run: the program's stdout and stderr (file descriptors 1 and 2 of its file system, which
// NODERAWFS maps to node's fs.writeSync and closes at exit) are kept; everything else goes to
// node's fs.
function run(args) {
  const streams = { 1: [], 2: [] };
  const ownFs = {
    ...fs,
    // The program's exit closes its standard streams: not node's.
    closeSync(fd) {
      if (fd > 2) fs.closeSync(fd);
    },
    writeSync(fd, buffer, offset, length, position) {
      if (fd !== 1 && fd !== 2) return fs.writeSync(fd, buffer, offset, length, position);
      const bytes = typeof buffer === 'string' ? Buffer.from(buffer) : Buffer.from(buffer.buffer ?? buffer);
      const start = typeof buffer === 'string' ? 0 : (offset ?? 0);
      const n = typeof buffer === 'string' ? bytes.length : (length ?? bytes.length - start);
      streams[fd].push(Buffer.from(bytes.subarray(start, start + n)));
      return n;
    },
  };
  let status = null;
  const exited = new Error('exit');
  const ownProcess = {
    argv: [process.argv[0], cliJs, ...args],
    env: process.env,
    versions: process.versions,
    platform: process.platform,
    cwd: () => process.cwd(),
    hrtime: process.hrtime,
    binding: (name) => process.binding(name),  // NODERAWFS reads fs constants through it
    on() {},
    exitCode: 0,
    exit(code) {
      status = code;
      throw exited;
    },
  };
  const Module = {
    arguments: args,
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(wasm, imports);
      receive(instance, wasm);
      return instance.exports;
    },
    quit(code, toThrow) {
      status = code;
      throw toThrow;
    },
  };
  const context = {
    Module, console, Buffer, WebAssembly, TextDecoder, TextEncoder, URL, performance,
    setTimeout, clearTimeout,
    require: (name) => (name === 'fs' ? ownFs : require(name)),
    process: ownProcess,
    __dirname: path.dirname(cliJs),
    __filename: cliJs,
  };
  try {
    script.runInNewContext(context);
  } catch (e) {
    if (e !== exited && !(e && e.name === 'ExitStatus')) {
      streams[2].push(Buffer.from(`wasm_cli: the run threw: ${e && e.stack ? e.stack : e}\n`));
      status = status ?? 1;
    }
  }
  return { out: Buffer.concat(streams[1]), err: Buffer.concat(streams[2]), rc: status ?? 0 };
}

for (const line of fs.readFileSync(jobsFile, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const [prefix, ...args] = JSON.parse(line);
  const r = run(args);
  fs.writeFileSync(`${prefix}.out`, r.out);
  fs.writeFileSync(`${prefix}.err`, r.err);
  fs.writeFileSync(`${prefix}.rc`, `${r.rc}\n`);
}
