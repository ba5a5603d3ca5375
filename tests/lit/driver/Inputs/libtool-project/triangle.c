/* triangle: a few functions, each in its own section when divcc links */
int triangle_step0(int x) { return x * 3 + 8; }
int triangle_step1(int x) { return x * 4 + 9; }
int triangle_step2(int x) { return x * 5 + 10; }
int triangle_step3(int x) { return x * 6 + 11; }
int triangle_step4(int x) { return x * 7 + 12; }
int triangle_step5(int x) { return x * 8 + 13; }
int triangle_step6(int x) { return x * 9 + 14; }
int triangle_step7(int x) { return x * 10 + 15; }
int triangle_all(int x) {
  int sum = 0;
  sum += triangle_step0(x + 0);
  sum += triangle_step1(x + 1);
  sum += triangle_step2(x + 2);
  sum += triangle_step3(x + 3);
  sum += triangle_step4(x + 4);
  sum += triangle_step5(x + 5);
  sum += triangle_step6(x + 6);
  sum += triangle_step7(x + 7);
  return sum;
}
