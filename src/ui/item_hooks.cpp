// Dear ImGui's test-engine hooks (imgui_internal.h, IMGUI_ENABLE_TEST_ENGINE), forwarding to the
// observer of item_hooks.hpp. Linked into the ImGui library itself, which calls them.
#include "ui/item_hooks.hpp"

#include <utility>

#include "imgui_internal.h"

namespace {

std::function<void(const tc::ui::ImGuiItem&)>& observer() {
  static std::function<void(const tc::ui::ImGuiItem&)> f;
  return f;
}

void report(ImGuiContext* ctx, ImGuiID id, const char* label) {
  if (observer() && ctx->CurrentWindow) observer()({ctx->CurrentWindow->ID, id, label});
}

}  // namespace

namespace tc::ui {

void observe_items(std::function<void(const ImGuiItem&)> f) {
  observer() = std::move(f);
  ImGui::GetCurrentContext()->TestEngineHookItems = static_cast<bool>(observer());
}

}  // namespace tc::ui

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect&, ImGuiID id) { report(ctx, id, nullptr); }
void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags) {
  report(ctx, id, label);
}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }
