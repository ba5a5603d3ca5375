# Prints the instructions of the blocks of x86-64 assembly that LLVM's
# block comments mark as in a loop ("Loop Header" or "in Loop:").
/^(\.LBB|# %bb\.|[A-Za-z_][A-Za-z0-9_]*:)/ { inloop = ($0 ~ /Loop/) }
/^\t[a-z]/ && inloop { print }
