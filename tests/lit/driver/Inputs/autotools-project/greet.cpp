#include <string>
static std::string message = "hello from autotools";
extern "C" const char *greet() { return message.c_str(); }
