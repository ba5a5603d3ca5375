# pick-arm.mir's substitutions written back (subst-arm.test): every form of
# a copy as `mov rd, rm` without kill flags, `movw r0, #1` as `mov r0, #1`,
# and the commutative addition in its first order.
s/(ORR|AND)rr \$(r[0-9]+|lr), \$\2, /MOVr $\2, /
s/(ADD|SUB|ORR|EOR|BIC)ri \$(r[0-9]+|lr), 0, /MOVr $\2, /
s/MOVr killed /MOVr /
s/MOVi16 1, 14 \/\* CC::al \*\/, \$noreg$/MOVi 1, 14 \/* CC::al *\/, $noreg, $noreg/
s/ADDrr killed renamable \$r4, killed renamable \$r0,/ADDrr killed renamable $r0, killed renamable $r4,/
