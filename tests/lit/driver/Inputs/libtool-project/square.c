/* square: a few functions, each in its own section when divcc links */
int square_step0(int x) { return x * 3 + 6; }
int square_step1(int x) { return x * 4 + 7; }
int square_step2(int x) { return x * 5 + 8; }
int square_step3(int x) { return x * 6 + 9; }
int square_step4(int x) { return x * 7 + 10; }
int square_step5(int x) { return x * 8 + 11; }
int square_step6(int x) { return x * 9 + 12; }
int square_step7(int x) { return x * 10 + 13; }
int square_all(int x) {
  int sum = 0;
  sum += square_step0(x + 0);
  sum += square_step1(x + 1);
  sum += square_step2(x + 2);
  sum += square_step3(x + 3);
  sum += square_step4(x + 4);
  sum += square_step5(x + 5);
  sum += square_step6(x + 6);
  sum += square_step7(x + 7);
  return sum;
}
