int l1(int x) { return x + 1; }
int l2(int x) { return x * 2; }
int l3(int x) { return x - 3; }
int l4(int x) { return x ^ 4; }
int l5(int x) { return x | 5; }
int l6(int x) { return x & 6; }
