# Counts x86-64 NOP forms in the first loop of function `hot` (from its
# loop header to the loop's back branch), and in all of functions `warm`
# and `cold`.
/^hot:/ { fn = "hot" }
/^warm:/ { fn = "warm" }
/^cold:/ { fn = "cold" }
/^\.Lfunc_end/ { fn = "" }
fn == "hot" && /Loop Header/ && !done { inloop = 1 }
/^\t(nop|movq\t%r[bs]p, %r[bs]p|leaq\t\(%r[sd]i\), %r[sd]i)$/ {
  if (inloop) loop++
  if (fn == "warm") warm++
  if (fn == "cold") cold++
}
inloop && /^\tj(ne|b|ae|e)\t/ { inloop = 0; done = 1 }
END {
  print "hot loop NOPs: " loop + 0
  print "warm NOPs: " warm + 0
  print "cold NOPs: " cold + 0
}
