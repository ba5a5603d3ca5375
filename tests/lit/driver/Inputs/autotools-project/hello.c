#include <stdio.h>
#include "config.h"
const char *greet(void);
int main(void) {
#ifdef HAVE_STRDUP
  printf("%s (configure found strdup)\n", greet());
#endif
  return 0;
}
