int asm_plus_one(int);
int pp_times_two(int);
int helper(int x) { return pp_times_two(asm_plus_one(x)); }
