// REP40(X) is X(00) X(01) ... X(39): forty copies of a definition, each
// with its two-digit number, for tests that need every random choice
// drawn at least once. NUM(n) is that number as an int ("08" is no octal
// number).
#define REP10(X, p)                                                            \
  X(p##0) X(p##1) X(p##2) X(p##3) X(p##4) X(p##5) X(p##6) X(p##7) X(p##8)     \
      X(p##9)
#define REP40(X) REP10(X, 0) REP10(X, 1) REP10(X, 2) REP10(X, 3)
#define NUM(n) (1##n - 100)
