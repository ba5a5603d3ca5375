//===- DiversityOptionParser.h - The options of the transformations -------===//
//
// The one parser of what users ask the transformations to do, shared by
// divcc/div++ (driver/Options.cpp) and divcc-llc, so that both accept the
// same spellings, values and bounds: -fdiversify, -fdiversify=LIST,
// -fno-diversify, -fdiversify-skip=/-only=T:FUNCS (FUNCS: f,g... or @FILE),
// and each transformation's own options, the rows that follow it in
// Transformations.def.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_DIVERSITYOPTIONPARSER_H
#define DIVCC_TRANSFORMS_DIVERSITYOPTIONPARSER_H

#include "transforms/DiversityOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>

namespace divcc {

/// Reads an option's value (empty for a flag) into the options; \p Spelling
/// is the option as the table spells it, for messages.
using OptionHandler = std::function<llvm::Error(
    DiversityOptions &, llvm::StringRef Value, llvm::StringRef Spelling)>;

struct DiversityOption {
  const char *Spelling; // "-fname" (a flag) or "-fname=" (takes a value)
  const char *MetaVar;
  const char *Help;
  /// The transformation the option belongs to; none for the options that
  /// choose transformations.
  std::optional<Transformation> Owner;
  OptionHandler Handle;
};

/// Every row: first those that choose transformations, then each
/// transformation's own, in the order of Transformations.def.
llvm::ArrayRef<DiversityOption> diversityOptions();

/// The row \p Arg is an instance of (its value in \p Value), or null.
const DiversityOption *findDiversityOption(llvm::StringRef Arg,
                                           llvm::StringRef &Value);

/// Applies \p Arg to \p Options if it is one of the rows: true if it was,
/// false if it is no option of the transformations, an error naming the
/// option for a bad value.
llvm::Expected<bool> applyDiversityOption(llvm::StringRef Arg,
                                          DiversityOptions &Options);

/// --help's lines for the rows that choose transformations.
void printSelectionHelp(llvm::raw_ostream &OS);
/// --help's list of the transformations, each with its own options.
void printTransformationHelp(llvm::raw_ostream &OS);

} // namespace divcc

#endif
