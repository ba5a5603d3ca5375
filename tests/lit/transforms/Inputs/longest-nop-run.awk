# Prints the length of the longest run of consecutive x86-64 NOP forms in an
# assembly file (comment-only lines do not break a run: they emit nothing).
/^\t(nop|movq\t%r[bs]p, %r[bs]p|leaq\t\(%r[sd]i\), %r[sd]i)$/ { run++; if (run > max) max = run; next }
/^[ \t]*#/ { next }
{ run = 0 }
END { print "longest NOP run: " max + 0 }
