//===- OptionTable.h - What every table of divcc's options shares ---------===//
//
// divcc's options are rows of small tables (the driver's own in
// driver/Options.cpp, the transformations' in
// transforms/DiversityOptionParser.cpp), each row a spelling, a help line
// and a handler. These are the pieces every table uses: how an argument
// matches a spelling, how a value is checked, how a row is shown in --help.
// Spellings follow GCC's: "-fname" is a flag, "-fname=" takes a value
// written after the '='.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_OPTIONTABLE_H
#define DIVCC_SUPPORT_OPTIONTABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>
#include <vector>

namespace divcc {

/// Whether \p Arg is the option \p Spelling: equal to a flag's spelling, or
/// starting with the spelling of one that takes a value, which is then
/// stored in \p Value.
bool matchesOption(llvm::StringRef Spelling, llvm::StringRef Arg,
                   llvm::StringRef &Value);

/// "invalid value 'V' in '-fname=V': WHY".
llvm::Error invalidOptionValue(llvm::StringRef Spelling, llvm::StringRef Value,
                               const llvm::Twine &Why);

/// A whole number from \p Lo to \p Hi.
llvm::Expected<unsigned> parseBoundedOption(llvm::StringRef Spelling,
                                            llvm::StringRef Value, unsigned Lo,
                                            unsigned Hi);

/// The mode named \p Value, one of \p Modes; another name is an error that
/// lists them.
template <typename ModeT>
llvm::Expected<ModeT>
parseModeOption(llvm::StringRef Spelling, llvm::StringRef Value,
                const std::vector<std::pair<llvm::StringRef, ModeT>> &Modes) {
  std::string Known;
  for (const auto &[Name, Mode] : Modes) {
    if (Value == Name)
      return Mode;
    Known += (Known.empty() ? "expected '" : " or '") + Name.str() + "'";
  }
  return invalidOptionValue(Spelling, Value, Known);
}

/// One line of --help: the spelling and its metavariable in a column of
/// \p Width, then the help text.
void printOptionHelp(llvm::raw_ostream &OS, llvm::StringRef Spelling,
                     llvm::StringRef MetaVar, llvm::StringRef Help,
                     unsigned Indent = 2, unsigned Width = 34);

} // namespace divcc

#endif
