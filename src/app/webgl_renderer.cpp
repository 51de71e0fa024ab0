#include "app/webgl_renderer.hpp"

#include <GLES3/gl3.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "imgui.h"

namespace tc::app {

namespace {

GLuint g_program = 0, g_vao = 0, g_vbo = 0, g_ebo = 0, g_font = 0;
GLint g_proj = -1, g_tex = -1;

const char* kVertex = R"(#version 300 es
precision highp float;
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
out vec2 Frag_UV;
out vec4 Frag_Color;
void main() {
  Frag_UV = UV;
  Frag_Color = Color;
  gl_Position = ProjMtx * vec4(Position.xy, 0, 1);
})";

const char* kFragment = R"(#version 300 es
precision mediump float;
uniform sampler2D Texture;
in vec2 Frag_UV;
in vec4 Frag_Color;
layout (location = 0) out vec4 Out_Color;
void main() {
  Out_Color = Frag_Color * texture(Texture, Frag_UV.st);
})";

GLuint compile(GLenum type, const char* src) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);  // once, at start: not per frame
  if (!ok) {
    char log[512];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "shader: %s\n", log);
  }
  return s;
}

}  // namespace

bool webgl_init() {
  g_program = glCreateProgram();
  glAttachShader(g_program, compile(GL_VERTEX_SHADER, kVertex));
  glAttachShader(g_program, compile(GL_FRAGMENT_SHADER, kFragment));
  glLinkProgram(g_program);
  GLint ok = 0;
  glGetProgramiv(g_program, GL_LINK_STATUS, &ok);
  if (!ok) return false;
  g_proj = glGetUniformLocation(g_program, "ProjMtx");
  g_tex = glGetUniformLocation(g_program, "Texture");
  glGenVertexArrays(1, &g_vao);
  glGenBuffers(1, &g_vbo);
  glGenBuffers(1, &g_ebo);
  glBindVertexArray(g_vao);
  glBindBuffer(GL_ARRAY_BUFFER, g_vbo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g_ebo);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert),
                        reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
  glBindVertexArray(0);
  ImGui::GetIO().BackendRendererName = "traincalc_webgl2";
  webgl_upload_fonts();
  return true;
}

void webgl_upload_fonts() {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  if (g_font) glDeleteTextures(1, &g_font);
  glGenTextures(1, &g_font);
  glBindTexture(GL_TEXTURE_2D, g_font);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(g_font)));
}

void webgl_render(ImDrawData* dd, int fb_w, int fb_h) {
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.1f, 0.1f, 0.12f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  if (!dd || fb_w <= 0 || fb_h <= 0) return;
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_SCISSOR_TEST);
  glUseProgram(g_program);
  const float L = dd->DisplayPos.x, R = dd->DisplayPos.x + dd->DisplaySize.x;
  const float T = dd->DisplayPos.y, B = dd->DisplayPos.y + dd->DisplaySize.y;
  const float ortho[16] = {2.0f / (R - L), 0, 0, 0, 0, 2.0f / (T - B), 0, 0, 0, 0, -1, 0,
                           (R + L) / (L - R), (T + B) / (B - T), 0, 1};
  glUniformMatrix4fv(g_proj, 1, GL_FALSE, ortho);
  glUniform1i(g_tex, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(g_vao);
  glBindBuffer(GL_ARRAY_BUFFER, g_vbo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g_ebo);
  const ImVec2 clip_off = dd->DisplayPos;
  const ImVec2 scale = dd->FramebufferScale;
  for (int n = 0; n < dd->CmdListsCount; ++n) {
    const ImDrawList* cl = dd->CmdLists[n];
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(cl->VtxBuffer.Size) * sizeof(ImDrawVert),
                 cl->VtxBuffer.Data, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(cl->IdxBuffer.Size) * sizeof(ImDrawIdx),
                 cl->IdxBuffer.Data, GL_STREAM_DRAW);
    for (int i = 0; i < cl->CmdBuffer.Size; ++i) {
      const ImDrawCmd& cmd = cl->CmdBuffer[i];
      if (cmd.UserCallback) {
        if (cmd.UserCallback != ImDrawCallback_ResetRenderState) cmd.UserCallback(cl, &cmd);
        continue;
      }
      const float x0 = (cmd.ClipRect.x - clip_off.x) * scale.x, y0 = (cmd.ClipRect.y - clip_off.y) * scale.y;
      const float x1 = (cmd.ClipRect.z - clip_off.x) * scale.x, y1 = (cmd.ClipRect.w - clip_off.y) * scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(static_cast<int>(x0), static_cast<int>(fb_h - y1), static_cast<int>(x1 - x0), static_cast<int>(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(static_cast<void*>(cmd.GetTexID()))));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<void*>(static_cast<std::intptr_t>(cmd.IdxOffset * sizeof(ImDrawIdx))));
    }
  }
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(0);
}

}  // namespace tc::app
