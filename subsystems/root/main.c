#include <stdio.h>
int main(void) { printf("hello from the root\n"); return 0; }
