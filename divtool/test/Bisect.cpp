//===- Bisect.cpp - A failing variant narrowed to a transformation --------===//

#include "divtool/test/Bisect.h"

#include "analysis/ElfImage.h"
#include "divtool/population/VariantBuild.h"
#include "support/AtomicOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace divcc {

std::vector<std::string> functionsOfTree(StringRef Tree) {
  std::vector<std::string> Names;
  Expected<std::vector<std::string>> Binaries =
      findArtifacts(Tree, TreeSnapshot(), {});
  if (!Binaries) {
    consumeError(Binaries.takeError());
    return Names;
  }
  for (const std::string &Relative : *Binaries) {
    SmallString<256> Path(Tree);
    sys::path::append(Path, Relative);
    Expected<ElfImage> Image = ElfImage::open(Path);
    if (!Image) {
      consumeError(Image.takeError());
      continue;
    }
    // Local functions that share a name are keyed "name#2"...; divcc's
    // filter names them all at once by their name.
    for (const FunctionSymbol &F : Image->functions())
      Names.push_back(StringRef(F.Key).split('#').first.str());
  }
  llvm::sort(Names);
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  return Names;
}

namespace {

std::string names(ArrayRef<Transformation> Set) {
  std::string Text;
  for (Transformation T : Set)
    Text += (Text.empty() ? "" : ",") + std::string(transformationName(T));
  return Text;
}

/// "f, g, h" or "f, g, h and 12 more".
std::string someNames(ArrayRef<std::string> Functions) {
  std::string Text;
  for (const std::string &F : Functions.take_front(3))
    Text += (Text.empty() ? "" : ", ") + F;
  if (Functions.size() > 3)
    Text += " and " + std::to_string(Functions.size() - 3) + " more";
  return Text;
}

class Bisection {
public:
  Bisection(RunTrial Run, StringRef ListDir,
            function_ref<void(const Twine &)> Say)
      : Run(Run), ListDir(ListDir), Say(Say) {}

  Expected<BisectResult> run(ArrayRef<Transformation> Active);

private:
  /// Whether the variant fails with only \p Set.
  Expected<bool> failsWith(ArrayRef<Transformation> Set, bool List);
  /// Whether it fails with \p T acting only on \p Functions.
  Expected<bool> failsOn(Transformation T, ArrayRef<std::string> Functions);
  Error narrowFunctions(Transformation T, std::vector<std::string> Candidates,
                        BisectResult &Result);

  RunTrial Run;
  std::string ListDir;
  function_ref<void(const Twine &)> Say;
  unsigned Lists = 0;
  std::vector<std::string> LastFunctions;
};

Expected<bool> Bisection::failsWith(ArrayRef<Transformation> Set, bool List) {
  Expected<Trial> T = Run(DivccOptions().diversify(names(Set)), List);
  if (!T)
    return T.takeError();
  Say("  -fdiversify=" + names(Set) + ": " + (T->Fails ? "fails" : "passes"));
  LastFunctions = std::move(T->Functions);
  return T->Fails;
}

Expected<bool> Bisection::failsOn(Transformation T,
                                  ArrayRef<std::string> Functions) {
  SmallString<256> List(ListDir);
  sys::path::append(List, "functions-" + std::to_string(++Lists) + ".txt");
  if (Error E = writeFileAtomically(List, join(Functions, "\n") + "\n"))
    return E;
  std::string Name = transformationName(T);
  Expected<Trial> Result =
      Run(DivccOptions().diversify(Name).only(T, ("@" + List).str()), false);
  if (!Result)
    return Result.takeError();
  Say("  " + Name + " on " + Twine(Functions.size()) + " function" +
      (Functions.size() == 1 ? "" : "s") + " (" + someNames(Functions) +
      "): " + (Result->Fails ? "fails" : "passes"));
  return Result->Fails;
}

Error Bisection::narrowFunctions(Transformation T,
                                 std::vector<std::string> Candidates,
                                 BisectResult &Result) {
  bool Confirmed = false;
  while (Candidates.size() > 1) {
    size_t Half = Candidates.size() / 2;
    std::vector<std::string> First(Candidates.begin(),
                                   Candidates.begin() + Half);
    std::vector<std::string> Second(Candidates.begin() + Half,
                                    Candidates.end());
    Expected<bool> FirstFails = failsOn(T, First);
    if (!FirstFails)
      return FirstFails.takeError();
    if (*FirstFails) {
      Candidates = std::move(First);
      Confirmed = true;
      continue;
    }
    Expected<bool> SecondFails = failsOn(T, Second);
    if (!SecondFails)
      return SecondFails.takeError();
    if (!*SecondFails) {
      Result.Note = "neither half of these functions fails alone: the "
                    "failure needs several of them together";
      break;
    }
    Candidates = std::move(Second);
    Confirmed = true;
  }
  if (Candidates.size() == 1 && !Confirmed) {
    Expected<bool> Fails = failsOn(T, Candidates);
    if (!Fails)
      return Fails.takeError();
    if (!*Fails) {
      Result.Note = "the function list does not reproduce the failure";
      return Error::success();
    }
  }
  Result.Functions = std::move(Candidates);
  return Error::success();
}

Expected<BisectResult> Bisection::run(ArrayRef<Transformation> Active) {
  BisectResult Result;
  std::optional<Transformation> Culprit;
  for (Transformation T : Active) {
    bool PerFunction = allTransformations()[unsigned(T)].PerFunction;
    Expected<bool> Fails = failsWith(T, /*List=*/PerFunction);
    if (!Fails)
      return Fails.takeError();
    if (*Fails) {
      Culprit = T;
      break;
    }
  }

  if (!Culprit) {
    // Drop what the failure does not need, one at a time.
    std::vector<Transformation> Needed(Active.begin(), Active.end());
    Expected<bool> AllFail = failsWith(Needed, false);
    if (!AllFail)
      return AllFail.takeError();
    if (!*AllFail) {
      Result.Note = "the variant passes when rebuilt: the failure is not "
                    "reproducible (is the test deterministic?)";
      return Result;
    }
    for (Transformation T : Active) {
      if (Needed.size() == 1)
        break;
      std::vector<Transformation> Fewer = Needed;
      llvm::erase(Fewer, T);
      Expected<bool> Fails = failsWith(Fewer, false);
      if (!Fails)
        return Fails.takeError();
      if (*Fails)
        Needed = std::move(Fewer);
    }
    Result.Reproduced = true;
    Result.Transformations = Needed;
    Result.Note = Needed.size() > 1
                      ? "no transformation fails alone"
                      : "it failed alone only on a second try (is the test "
                        "deterministic?)";
    return Result;
  }

  Result.Reproduced = true;
  Result.Transformations = {*Culprit};
  if (!allTransformations()[unsigned(*Culprit)].PerFunction) {
    Result.Note = "'" + std::string(transformationName(*Culprit)) +
                  "' acts on whole modules or the link, not per function";
    return Result;
  }
  if (LastFunctions.empty()) {
    Result.Note = "the build's binaries have no function symbols (stripped?)";
    return Result;
  }
  if (Error E = narrowFunctions(*Culprit, LastFunctions, Result))
    return E;
  return Result;
}

} // namespace

Expected<BisectResult> bisectVariant(ArrayRef<Transformation> Active,
                                     RunTrial Run, StringRef FunctionListDir,
                                     function_ref<void(const Twine &)> Say) {
  return Bisection(Run, FunctionListDir, Say).run(Active);
}

} // namespace divcc
