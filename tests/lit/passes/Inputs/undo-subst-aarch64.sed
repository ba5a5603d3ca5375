# pick-aarch64.mir's substitutions written back (subst-aarch64.test): every
# form of a copy as `orr wd, wzr, wm` without kill flags, `orr w0, wzr, #1`
# (1 as a bitmask immediate is encoded 0) as `movz w0, #1`, and the two
# commutative operations in their first order.
s/(ORR|EOR|ADD|SUB)Wrs \$(w[0-9]+), \$wzr, 0/ORRWrs $wzr, $\2, 0/
s/(ORR|EOR|ADD)Wrs \$wzr, \$(w[0-9]+), 0/ORRWrs $wzr, $\2, 0/
s/(ORR|AND)Wrs \$(w[0-9]+), \$\2, 0/ORRWrs $wzr, $\2, 0/
s/(ADD|SUB)Wri \$(w[0-9]+), 0, 0/ORRWrs $wzr, $\2, 0/
s/ADDWrs killed renamable \$w19, killed renamable \$w0, 0/ADDWrs killed renamable $w0, killed renamable $w19, 0/
s/EORWrs killed renamable \$w8, killed renamable \$w1, 0/EORWrs killed renamable $w1, killed renamable $w8, 0/
s/ORRWrs \$wzr, killed /ORRWrs $wzr, /
s/ORRWri \$wzr, 0$/MOVZWi 1, 0/
