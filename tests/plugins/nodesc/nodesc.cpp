// A library with no plugin descriptor (thorin_plugin_nodesc is missing).
extern "C" int thorin_not_a_descriptor() { return 0; }
