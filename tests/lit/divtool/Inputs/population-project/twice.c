int twice(int x) {
  int r = 0;
  for (int i = 0; i < 2; ++i)
    r += x;
  return r;
}
