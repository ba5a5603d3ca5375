//===- DiversityOptionParser.cpp - The options of the transformations -----===//
//
// The rows of DiversityOptionParser.h: the options that choose
// transformations are written here; each transformation's own are
// expanded from Transformations.def, whose HANDLER expressions are built
// from the helpers below (bounded, probability, mode, a flag pair).
//
//===----------------------------------------------------------------------===//

#include "transforms/DiversityOptionParser.h"

#include "support/OptionTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace divcc {
namespace {

template <typename T> using Field = T &(*)(DiversityOptions &);

/// A whole number from \p Lo to \p Hi.
OptionHandler bounded(unsigned Lo, unsigned Hi, Field<unsigned> Get) {
  return [=](DiversityOptions &O, StringRef V, StringRef Spelling) -> Error {
    Expected<unsigned> N = parseBoundedOption(Spelling, V, Lo, Hi);
    if (!N)
      return N.takeError();
    Get(O) = *N;
    return Error::success();
  };
}

/// A probability, 0 to 1.
OptionHandler probability(Field<Probability> Get) {
  return [=](DiversityOptions &O, StringRef V, StringRef Spelling) -> Error {
    Expected<Probability> P = Probability::parse(V);
    if (!P)
      return invalidOptionValue(Spelling, V, toString(P.takeError()));
    Get(O) = *P;
    return Error::success();
  };
}

/// A bound of profile-guided NOP insertion, which it turns on.
OptionHandler profileGuidedProbability(Field<Probability> Get) {
  return [Parse = probability(Get)](DiversityOptions &O, StringRef V,
                                    StringRef Spelling) -> Error {
    O.Nops.ProfileGuided = true;
    return Parse(O, V, Spelling);
  };
}

/// One of the named \p Modes.
template <typename ModeT>
OptionHandler mode(std::vector<std::pair<StringRef, ModeT>> Modes,
                   Field<ModeT> Get) {
  return [=](DiversityOptions &O, StringRef V, StringRef Spelling) -> Error {
    Expected<ModeT> M = parseModeOption(Spelling, V, Modes);
    if (!M)
      return M.takeError();
    Get(O) = *M;
    return Error::success();
  };
}

/// Sets a bool to \p Value: one half of a -fX / -fno-X pair.
OptionHandler setFlag(Field<bool> Get, bool Value) {
  return [=](DiversityOptions &O, StringRef, StringRef) -> Error {
    Get(O) = Value;
    return Error::success();
  };
}

/// The per-function transformations, for messages: "nops, sched, ...".
std::string perFunctionNames() {
  std::string Names;
  for (const TransformationInfo &Info : allTransformations())
    if (Info.PerFunction)
      Names += std::string(Names.empty() ? "" : ", ") + Info.Name;
  return Names;
}

Error expectedFunctionList(StringRef Spelling, StringRef Value) {
  return invalidOptionValue(Spelling, Value,
                            "expected TRANSFORMATION:FUNCTION[,FUNCTION...] "
                            "or TRANSFORMATION:@FILE");
}

/// The function names of FUNC[,FUNC...] or of @FILE (one a line; blank
/// lines ignored).
Expected<std::vector<std::string>>
functionNames(StringRef Spelling, StringRef Value, StringRef List) {
  std::vector<std::string> Names;
  SmallVector<StringRef, 16> Parts;
  if (List.consume_front("@")) {
    auto File = MemoryBuffer::getFile(List, /*IsText=*/true);
    if (!File)
      return createStringError(File.getError(),
                               "cannot read function list '" + List +
                                   "' (from '" + Spelling + Value +
                                   "'): " + File.getError().message());
    (*File)->getBuffer().split(Parts, '\n');
    for (StringRef Part : Parts)
      if (!Part.trim().empty())
        Names.push_back(Part.trim().str());
    return Names;
  }
  List.split(Parts, ',');
  for (StringRef Part : Parts) {
    if (Part.empty())
      return expectedFunctionList(Spelling, Value);
    Names.push_back(Part.str());
  }
  return Names;
}

/// -fdiversify-skip=T:FUNCS and -fdiversify-only=T:FUNCS.
OptionHandler filterFunctions(bool Only) {
  return [=](DiversityOptions &O, StringRef Value, StringRef Spelling) -> Error {
    auto [Name, List] = Value.split(':');
    if (Name.size() == Value.size() || List.empty())
      return expectedFunctionList(Spelling, Value);
    SmallVector<Transformation, 8> Kinds;
    if (Name == "all") {
      for (const TransformationInfo &Info : allTransformations())
        if (Info.PerFunction)
          Kinds.push_back(Info.Kind);
    } else {
      std::optional<Transformation> T = findTransformation(Name);
      if (!T)
        return createStringError(inconvertibleErrorCode(),
                                 "unknown transformation '" + Name + "' in '" +
                                     Spelling + Value + "' (per-function: " +
                                     perFunctionNames() + ", all)");
      if (!transformationInfo(*T).PerFunction)
        return createStringError(
            inconvertibleErrorCode(),
            "'" + Name + "' in '" + Spelling + Value +
                "' cannot be turned off per function: it acts on whole "
                "modules or the link (per-function: " +
                perFunctionNames() + ")");
      Kinds.push_back(*T);
    }
    Expected<std::vector<std::string>> Names =
        functionNames(Spelling, Value, List);
    if (!Names)
      return Names.takeError();
    for (Transformation T : Kinds) {
      if (Only)
        O.Functions.restrict(T);
      for (const std::string &F : *Names) {
        if (Only)
          O.Functions.allow(T, F);
        else
          O.Functions.skip(T, F);
      }
    }
    return Error::success();
  };
}

std::vector<DiversityOption> buildRows() {
  std::vector<DiversityOption> Rows = {
      {"-fdiversify", "",
       "Diversify with the default transformations (the default)",
       std::nullopt,
       [](DiversityOptions &O, StringRef, StringRef) -> Error {
         O.Transformations = TransformationSet::defaultSet();
         return Error::success();
       }},
      {"-fdiversify=", "LIST",
       "Diversify with the transformations in LIST (comma-separated names, "
       "'default' or 'all')",
       std::nullopt,
       [](DiversityOptions &O, StringRef V, StringRef Spelling) -> Error {
         if (V.empty())
           return invalidOptionValue(Spelling, V,
                                     "expected a comma-separated list");
         Expected<TransformationSet> Set =
             parseTransformationList(V, (Spelling + V).str());
         if (!Set)
           return Set.takeError();
         O.Transformations = *Set;
         return Error::success();
       }},
      {"-fno-diversify", "", "Do not diversify: generate exactly clang's code",
       std::nullopt,
       [](DiversityOptions &O, StringRef, StringRef) -> Error {
         O.Transformations = TransformationSet();
         return Error::success();
       }},
      {"-fdiversify-skip=", "T:FUNCS",
       "Leave the functions FUNCS (f,g... or @FILE, one a line) as they are "
       "without the per-function transformation T ('all': every one)",
       std::nullopt, filterFunctions(/*Only=*/false)},
      {"-fdiversify-only=", "T:FUNCS",
       "Let the per-function transformation T ('all': every one) act only on "
       "the functions FUNCS (f,g... or @FILE)",
       std::nullopt, filterFunctions(/*Only=*/true)},
  };
#define DIVCC_TRANSFORMATION_OPTION(KIND, SPELLING, METAVAR, HELP, HANDLER)    \
  Rows.push_back({SPELLING, METAVAR, HELP, Transformation::KIND, HANDLER});
#define DIVCC_TRANSFORMATION_FLAG(KIND, SPELLING, NO_SPELLING, HELP, NO_HELP,  \
                                  FIELD)                                       \
  Rows.push_back({SPELLING, "", HELP, Transformation::KIND,                    \
                  setFlag([](DiversityOptions &O) -> bool & {                  \
                    return O.FIELD;                                            \
                  }, true)});                                                  \
  Rows.push_back({NO_SPELLING, "", NO_HELP, Transformation::KIND,              \
                  setFlag([](DiversityOptions &O) -> bool & {                  \
                    return O.FIELD;                                            \
                  }, false)});
#include "transforms/Transformations.def"
  return Rows;
}

} // namespace

ArrayRef<DiversityOption> diversityOptions() {
  static const std::vector<DiversityOption> Rows = buildRows();
  return Rows;
}

const DiversityOption *findDiversityOption(StringRef Arg, StringRef &Value) {
  for (const DiversityOption &Row : diversityOptions())
    if (matchesOption(Row.Spelling, Arg, Value))
      return &Row;
  return nullptr;
}

Expected<bool> applyDiversityOption(StringRef Arg, DiversityOptions &Options) {
  StringRef Value;
  const DiversityOption *Row = findDiversityOption(Arg, Value);
  if (!Row)
    return false;
  if (Error E = Row->Handle(Options, Value, Row->Spelling))
    return E;
  return true;
}

void printSelectionHelp(raw_ostream &OS) {
  for (const DiversityOption &Row : diversityOptions())
    if (!Row.Owner)
      printOptionHelp(OS, Row.Spelling, Row.MetaVar, Row.Help);
}

void printTransformationHelp(raw_ostream &OS) {
  for (const TransformationInfo &Info : allTransformations()) {
    OS << "  " << left_justify(Info.Name, 10) << ' ' << Info.Summary
       << (Info.InDefaultSet ? " (default)" : "") << '\n';
    for (const DiversityOption &Row : diversityOptions())
      if (Row.Owner == Info.Kind)
        printOptionHelp(OS, Row.Spelling, Row.MetaVar, Row.Help, 6, 30);
  }
}

} // namespace divcc
