//===- VerifyCommand.cpp - `divtool verify`: rebuild a variant, compare ---===//
//
// A shipped binary is only as trustworthy as the claim that it is what the
// source and the variant's seed build. verify rebuilds the variant from its
// source with its seed and the recorded build command in a temporary tree,
// and compares three things byte for byte: the rebuild, the registry's
// SHA-256 and the shipped binary. When they disagree it says which one
// differs, since that tells what changed: the source or the compiler (the
// rebuild differs), or the file after the build (the shipped one differs).
// An install (divtool rerandomize --registry) is laid out again from its
// golden master instead of rebuilt.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <set>

using namespace llvm;

namespace divcc {
namespace {

struct VerifyCommandLine {
  std::string Registry;
  std::string SeedFile;
  std::string Variant;
  std::string Artifact;
  std::string Source;
  std::string Golden;
  bool Keep = false;
  std::string Shipped;
};

/// What identifies a binary: its file hash and, for ELF, its code hash.
struct BinaryFacts {
  std::string Path;
  std::string Sha256;
  std::string CodeSha256;
};

Expected<BinaryFacts> readFacts(StringRef Path) {
  if (!sys::fs::exists(Path))
    return makeError("cannot read '" + Path + "': No such file or directory");
  BinaryFacts F;
  F.Path = Path.str();
  Expected<std::string> Sha = fileSha256(Path);
  if (!Sha)
    return Sha.takeError();
  F.Sha256 = *Sha;
  if (Expected<ElfImage> Image = ElfImage::open(Path))
    F.CodeSha256 = codeSha256(*Image);
  else
    consumeError(Image.takeError());
  return F;
}

enum class Match { Identical, StrippedCopy, SameCode, Differs };

Match compare(const BinaryFacts &F, const ArtifactRecord &A) {
  if (F.Sha256 == A.Sha256)
    return Match::Identical;
  if (!A.StrippedSha256.empty() && F.Sha256 == A.StrippedSha256)
    return Match::StrippedCopy;
  if (!F.CodeSha256.empty() && F.CodeSha256 == A.CodeSha256)
    return Match::SameCode;
  return Match::Differs;
}

const char *describe(Match M) {
  switch (M) {
  case Match::Identical:
    return "identical to the registry";
  case Match::StrippedCopy:
    return "identical to the registry's stripped copy";
  case Match::SameCode:
    return "same code as the registry (identical executable segments; the "
           "file differs elsewhere, e.g. stripped)";
  case Match::Differs:
    return "DIFFERS from the registry";
  }
  return "";
}

/// The variant and artifacts to verify.
Expected<std::pair<VariantRecord, std::vector<ArtifactRecord>>>
choose(Registry &Reg, const VerifyCommandLine &C,
       const std::optional<BinaryFacts> &Shipped) {
  std::string Id = C.Variant;
  if (Id.empty()) {
    // Which variant claims the shipped binary?
    std::set<std::string> Claimants;
    for (const std::string &Hash : {Shipped->Sha256, Shipped->CodeSha256}) {
      if (Hash.empty())
        continue;
      Expected<std::vector<ArtifactRecord>> Found = Reg.artifactsWithHash(Hash);
      if (!Found)
        return Found.takeError();
      for (const ArtifactRecord &A : *Found)
        Claimants.insert(A.Variant);
    }
    if (Claimants.empty())
      return makeError(
          "'" + Shipped->Path + "' matches no artifact in registry '" +
          Reg.path() +
          "' (modified, or from another population?); "
          "name the variant to rebuild with --variant, or look for "
          "it with divtool identify");
    if (Claimants.size() > 1)
      return makeError("'" + Shipped->Path + "' matches artifacts of " +
                       Twine(Claimants.size()) + " variants (" +
                       llvm::join(Claimants, ", ") +
                       "); name one with --variant");
    Id = *Claimants.begin();
  }
  Expected<VariantRecord> V = Reg.builtVariant(Id);
  if (!V)
    return V.takeError();
  Expected<std::vector<ArtifactRecord>> All = Reg.artifacts(V->Id);
  if (!All)
    return All.takeError();
  auto Names = [&] {
    std::vector<std::string> N;
    for (const ArtifactRecord &A : *All)
      N.push_back("'" + A.Path + "'");
    return llvm::join(N, ", ");
  };
  std::vector<ArtifactRecord> Chosen;
  if (!C.Artifact.empty()) {
    for (const ArtifactRecord &A : *All)
      if (A.Path == C.Artifact)
        Chosen.push_back(A);
    if (Chosen.empty())
      return makeError(describeVariant(*V) + " has no artifact '" + C.Artifact +
                       "' (it has " + Names() + ")");
  } else if (Shipped) {
    for (const ArtifactRecord &A : *All)
      if (compare(*Shipped, A) != Match::Differs)
        Chosen.push_back(A);
    if (Chosen.empty() && All->size() == 1)
      Chosen = *All;
    if (Chosen.empty())
      for (const ArtifactRecord &A : *All)
        if (sys::path::filename(A.Path) == sys::path::filename(Shipped->Path))
          Chosen.push_back(A);
    if (Chosen.size() != 1)
      return makeError("which artifact of " + describeVariant(*V) + " is '" +
                       Shipped->Path + "'? name it with --artifact (it has " +
                       Names() + ")");
  } else {
    Chosen = *All;
  }
  return std::make_pair(std::move(*V), std::move(Chosen));
}

int runVerifyCommand(const VerifyCommandLine &C, const DivccEnvironment &) {
  if (C.Shipped.empty() && C.Variant.empty())
    return reportError(makeError("nothing to verify: give the shipped binary, "
                                 "or the variant with --variant"));
  Expected<OpenPopulation> Population = openPopulation(C.Registry, C.SeedFile);
  if (!Population)
    return reportError(Population.takeError());
  Registry &Reg = Population->Reg;
  const MasterKey &Key = Population->Key;
  std::optional<BinaryFacts> Shipped;
  if (!C.Shipped.empty()) {
    Expected<BinaryFacts> F = readFacts(C.Shipped);
    if (!F)
      return reportError(F.takeError());
    Shipped = std::move(*F);
  }
  auto Chosen = choose(Reg, C, Shipped);
  if (!Chosen)
    return reportError(Chosen.takeError());
  auto &[V, Artifacts] = *Chosen;

  RebuildOptions Options;
  Options.Source = C.Source;
  Options.Golden = C.Golden;
  Options.SeedFile = C.SeedFile;
  Options.Keep = C.Keep;
  Options.Tool = "divtool verify";
  Expected<RebuiltVariant> Rebuilt =
      rebuildVariant(V, Key, Reg.path(), Options);
  if (!Rebuilt)
    return reportError(Rebuilt.takeError());

  bool RebuildDiffers = false, ShippedDiffers = false;
  for (const ArtifactRecord &A : Artifacts) {
    outs() << describeVariant(V) << ", artifact '" << A.Path << "':\n"
           << "  registry  " << A.Sha256 << "\n";
    std::string File = Rebuilt->Tree + "/" + A.Path;
    Expected<BinaryFacts> R = readFacts(File);
    if (!R) {
      consumeError(R.takeError());
      outs() << "  rebuilt   (missing)  DIFFERS: the rebuild did not produce "
                "it\n";
      RebuildDiffers = true;
    } else {
      Match M = compare(*R, A);
      // The rebuild must be the very file, not only the same code.
      RebuildDiffers |= M != Match::Identical;
      outs() << "  rebuilt   " << R->Sha256 << "  "
             << (M == Match::Identical ? "identical to the registry"
                                       : "DIFFERS from the registry")
             << (M != Match::SameCode ? ""
                 : V.isInstall()
                     ? " (the code is the same: the golden master given "
                       "differs elsewhere, e.g. in debug information)"
                     : " (the code is the same)")
             << "\n";
    }
    if (Shipped) {
      Match M = compare(*Shipped, A);
      ShippedDiffers |= M == Match::Differs;
      outs() << "  shipped   " << Shipped->Sha256 << "  " << describe(M) << " ("
             << Shipped->Path << ")\n";
    }
  }
  if (C.Keep)
    noteStream() << "the rebuilt tree is kept in '" << Rebuilt->Tree
           << "'\n";

  if (!RebuildDiffers && !ShippedDiffers) {
    outs() << "verified: " << V.Id
           << (V.isInstall() ? " laid out again from its golden master and "
                               "the secret"
                             : " rebuilt from source and seed")
           << " is byte-identical to the registry"
           << (Shipped ? " and matches the shipped binary" : "") << "\n";
    return 0;
  }
  outs() << "NOT verified: ";
  if (RebuildDiffers && !ShippedDiffers && V.isInstall())
    outs() << "the new layout differs from the registry: llvm-bolt changed "
              "since the install was laid out\n";
  else if (RebuildDiffers && !ShippedDiffers)
    outs() << "the rebuild differs from the registry: the source tree, the "
              "compiler or the build command's environment changed since "
              "the population was built\n";
  else if (!RebuildDiffers)
    outs() << "the shipped binary differs from what " << V.Id
           << (V.isInstall() ? "'s golden master and secret lay out"
                             : "'s source and seed build")
           << ": it was changed after the build, or is another variant "
              "(divtool identify tells which)\n";
  else
    outs() << "both the rebuild and the shipped binary differ from the "
              "registry\n";
  if (RebuildDiffers && !V.isInstall()) {
    std::string Now = compilerIdentity(findDivcc(V.BuildCommand));
    if (Now != V.Compiler)
      outs() << "  note: the compiler was " << V.Compiler << "\n"
             << "        it is now       " << Now << "\n";
  }
  return 3;
}

} // namespace

void addVerifySubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<VerifyCommandLine>();
  CLI::App *Verify = Divtool.add_subcommand(
      "verify", "Rebuild a variant from source and seed and check it is "
                "byte-identical to the registry and the shipped binary");
  addRegistryOptions(*Verify, C->Registry, C->SeedFile);
  Verify->add_option("--variant", C->Variant,
                     "The variant or install to rebuild (default: the one "
                     "whose artifact the shipped binary is)");
  Verify->add_option("--artifact,-a", C->Artifact,
                     "The artifact to compare, when the variant has several");
  addSourceOption(*Verify, C->Source,
                  "The source tree (default: the one the population was "
                  "built from)");
  addGoldenOption(*Verify, C->Golden);
  addKeepFlag(*Verify, C->Keep, "Keep the temporary tree of the rebuild");
  Verify->add_option("shipped", C->Shipped,
                     "The shipped binary (optional with --variant)");
  Verify->footer(
      "The rebuild runs the recorded build command in a temporary copy of "
      "the source tree, with the variant's seed and without the front-end "
      "cache. An install is laid out again from its golden master (the "
      "recorded one, or --golden) with llvm-bolt.\n\nExit status: 0 when the "
      "rebuild is byte-identical to the "
      "registry and the shipped binary matches it (the same file, the "
      "stripped copy --strip made, or the same code, e.g. stripped by "
      "another tool), 1 on bad input or a failed rebuild, 2 on a usage "
      "error, 3 when something differs.");
  runWhenChosen(*Verify, Run, C, runVerifyCommand);
}

} // namespace divcc
