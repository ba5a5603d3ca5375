// A program without the C runtime: the only input objects are this one and
// divcc's own, so their notes alone decide the executable's.
void _start(void) { __builtin_trap(); }
