// A Dear ImGui renderer for WebGL2 that never reads GL state back. ImGui's OpenGL3 backend saves
// and restores ~20 pieces of state per frame with glGet*/glIsEnabled; in a browser each of those
// is a synchronous round trip to the GPU process, which waits for the previous frame to finish
// rasterizing (tens of milliseconds under software rendering). The page owns its context, so
// there is nothing to restore.
#pragma once

struct ImDrawData;

namespace tc::app {

bool webgl_init();
void webgl_upload_fonts();  // after the font atlas changed
void webgl_render(ImDrawData* draw_data, int fb_width, int fb_height);

}  // namespace tc::app
