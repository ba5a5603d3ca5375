//===- IdentifyCommand.cpp - `divtool identify`: whose binary is this? ----===//
//
// A leaked binary, a stripped copy, or a fragment of code from a crash dump
// or a memory image: identify says which variant of the population it is.
//
// 1. Exact: the file's SHA-256 is an artifact's (or the stripped copy's
//    that `population --strip` made).
// 2. Code: an ELF file whose executable segments hash like an artifact's
//    (a copy stripped by any tool, or with other non-code changes).
// 3. Layout: the suspect's code (its executable segments, or the whole file
//    when it is not an ELF binary, e.g. a raw page of .text) is sampled with
//    the same winnowed 32-byte window hashes the registry keeps for every
//    variant (registry/Fingerprints.h). A variant holds a share of the
//    suspect's samples; samples that several variants hold (code divcc did
//    not diversify: C runtime start files, PLT stubs, padding) say nothing,
//    so the decision rests on the samples only one variant holds. The best
//    variant is identified when it holds at least 4 such samples, they are
//    at least a tenth of the suspect's, and at least three times as many as
//    any other variant holds. The confidence printed is the difference
//    between its share of the suspect's samples and the runner-up's.
//
// Otherwise the answer is "none" (exit status 4). Installs recorded by
// divtool rerandomize --registry are candidates like variants.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/population/VariantBuild.h"
#include "registry/Fingerprints.h"
#include "support/Sha256.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <set>

using namespace llvm;

namespace divcc {
namespace {

constexpr int NoMatchStatus = 4;
constexpr uint64_t MinDistinctive = 4;
constexpr double MinDistinctiveShare = 0.1;
constexpr uint64_t DistinctiveRatio = 3;

struct IdentifyCommandLine {
  std::string Registry;
  std::string SeedFile;
  std::string Suspect;
  bool Json = false;
};

struct Candidate {
  std::string Variant;
  uint64_t Held = 0, Alone = 0;
};

struct Answer {
  std::string Kind = "none"; ///< exact, code, layout or none.
  std::string Variant, Label, Artifact;
  std::string GoldenCodeSha256; ///< when the answer is an install
  double Confidence = 0;
  uint64_t Windows = 0;
  std::optional<Candidate> Best, RunnerUp;
  std::string Note;
};

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

std::string percent(double Share) {
  std::string S;
  raw_string_ostream(S) << format("%.1f%%", Share * 100);
  return S;
}

/// An exact or code match: the variants whose artifacts have hash \p Hash.
Expected<bool> hashMatch(Registry &Reg, StringRef Hash, StringRef Kind,
                         Answer &A) {
  if (Hash.empty())
    return false;
  Expected<std::vector<ArtifactRecord>> Found = Reg.artifactsWithHash(Hash);
  if (!Found)
    return Found.takeError();
  std::set<std::string> Variants;
  for (const ArtifactRecord &R : *Found)
    Variants.insert(R.Variant);
  if (Variants.empty())
    return false;
  if (Variants.size() > 1) {
    A.Note = ("the suspect is artifact '" + Found->front().Path + "' of " +
              Twine(Variants.size()) + " variants alike (" +
              llvm::join(Variants, ", ") +
              "): it was not diversified, and identifies none of them")
                 .str();
    return true;
  }
  A.Kind = Kind.str();
  A.Variant = Found->front().Variant;
  A.Artifact = Found->front().Path;
  A.Confidence = 1.0;
  return true;
}

Expected<Answer> identify(Registry &Reg, StringRef Suspect) {
  Answer A;
  if (!sys::fs::exists(Suspect))
    return makeError("cannot read '" + Suspect +
                     "': No such file or directory");
  auto Buffer = MemoryBuffer::getFile(Suspect, false, false);
  if (!Buffer)
    return makeError("cannot read '" + Suspect +
                     "': " + Buffer.getError().message());
  StringRef Bytes = (*Buffer)->getBuffer();
  Expected<bool> Exact =
      hashMatch(Reg, toHex(Sha256::digest(Bytes)), "exact", A);
  if (!Exact)
    return Exact.takeError();
  if (*Exact)
    return A;

  std::vector<uint64_t> Samples;
  Expected<ElfImage> Image = ElfImage::open(Suspect);
  if (Image) {
    Expected<bool> Code = hashMatch(Reg, codeSha256(*Image), "code", A);
    if (!Code)
      return Code.takeError();
    if (*Code)
      return A;
    Samples = codeFingerprints(*Image);
  } else {
    // Not a binary divtool reads: raw code, such as a page of .text.
    consumeError(Image.takeError());
    addFingerprints(arrayRefFromStringRef(Bytes), Samples);
    sortUnique(Samples);
  }
  if (Samples.empty() || Bytes.size() < 2 * FingerprintWindowBytes)
    return makeError("'" + Suspect + "' is too small to identify (" +
                     Twine(Bytes.size()) + " bytes; at least " +
                     Twine(2 * FingerprintWindowBytes) + " needed)");
  A.Windows = Samples.size();
  Expected<Registry::FingerprintCounts> Counts = Reg.countFingerprints(Samples);
  if (!Counts)
    return Counts.takeError();

  std::vector<Candidate> Ranked;
  for (const auto &[Variant, Held] : Counts->Held) {
    auto It = Counts->HeldAlone.find(Variant);
    Ranked.push_back(
        {Variant, Held, It == Counts->HeldAlone.end() ? 0 : It->second});
  }
  llvm::sort(Ranked, [](const Candidate &X, const Candidate &Y) {
    return std::tie(Y.Alone, Y.Held, X.Variant) <
           std::tie(X.Alone, X.Held, Y.Variant);
  });
  if (!Ranked.empty())
    A.Best = Ranked[0];
  if (Ranked.size() > 1)
    A.RunnerUp = Ranked[1];
  Candidate None;
  const Candidate &Best = A.Best ? *A.Best : None;
  const Candidate &Second = A.RunnerUp ? *A.RunnerUp : None;
  A.Confidence = std::max(0.0, share(Best.Held, A.Windows) -
                                   share(Second.Held, A.Windows));
  if (Best.Alone >= MinDistinctive &&
      share(Best.Alone, A.Windows) >= MinDistinctiveShare &&
      Best.Alone >= DistinctiveRatio * Second.Alone) {
    A.Kind = "layout";
    A.Variant = Best.Variant;
  }
  return A;
}

int runIdentifyCommand(const IdentifyCommandLine &C, const DivccEnvironment &) {
  Expected<OpenPopulation> Population = openPopulation(C.Registry, C.SeedFile);
  if (!Population)
    return reportError(Population.takeError());
  Registry &Reg = Population->Reg;
  Expected<Answer> A = identify(Reg, C.Suspect);
  if (!A)
    return reportError(A.takeError());
  if (!A->Variant.empty()) {
    Expected<VariantRecord> V = Reg.builtVariant(A->Variant);
    if (!V)
      return reportError(V.takeError());
    A->Label = V->Label;
    A->GoldenCodeSha256 = V->GoldenCodeSha256;
  }
  bool Identified = A->Kind != "none";

  if (C.Json) {
    auto CandidateJson = [&](const std::optional<Candidate> &X) {
      if (!X)
        return nlohmann::json();
      return nlohmann::json{{"variant", X->Variant},
                            {"share", share(X->Held, A->Windows)},
                            {"distinctive", X->Alone}};
    };
    nlohmann::json J = {
        {"suspect", C.Suspect},
        {"match", A->Kind},
        {"variant", Identified ? nlohmann::json(A->Variant) : nullptr},
        {"label", Identified ? nlohmann::json(A->Label) : nullptr},
        {"artifact",
         A->Artifact.empty() ? nullptr : nlohmann::json(A->Artifact)},
        {"confidence", A->Confidence},
        {"sampled_windows", A->Windows},
        {"best", CandidateJson(A->Best)},
        {"runner_up", CandidateJson(A->RunnerUp)}};
    if (!A->Note.empty())
      J["note"] = A->Note;
    if (!A->GoldenCodeSha256.empty())
      J["golden_code_sha256"] = A->GoldenCodeSha256;
    outs() << J.dump(2) << "\n";
    return Identified ? 0 : NoMatchStatus;
  }

  std::string Name =
      !A->GoldenCodeSha256.empty()
          ? "install '" + A->Label + "' of golden master " +
                A->GoldenCodeSha256.substr(0, 12) + " (" + A->Variant + ")"
          : A->Variant + (A->Label.empty() ? "" : " ('" + A->Label + "')");
  if (A->Kind == "exact") {
    outs() << Name << ": exact match: the suspect is artifact '" << A->Artifact
           << "'\n";
    return 0;
  }
  if (A->Kind == "code") {
    outs() << Name << ": code match: the suspect has the code of artifact '"
           << A->Artifact
           << "' (identical executable segments; the file differs "
              "elsewhere, e.g. stripped)\n";
    return 0;
  }
  auto Describe = [&](const Candidate &X) {
    return percent(share(X.Held, A->Windows)) + " in " + X.Variant + " (" +
           std::to_string(X.Alone) + " in no other variant)";
  };
  std::string Evidence;
  if (A->Best) {
    Evidence = "of the suspect's " + std::to_string(A->Windows) +
               " sampled code windows, " + Describe(*A->Best);
    if (A->RunnerUp)
      Evidence += ", " + Describe(*A->RunnerUp) + " (the runner-up)";
  } else if (A->Windows) {
    Evidence = "none of the suspect's " + std::to_string(A->Windows) +
               " sampled code windows is in any variant";
  }
  if (Identified) {
    outs() << Name << ": code layout match, confidence "
           << format("%.2f", A->Confidence) << ": " << Evidence << "\n";
    return 0;
  }
  outs() << "none: no registered variant matches"
         << (A->Note.empty() ? Evidence.empty() ? "" : ": " + Evidence
                             : ": " + A->Note)
         << "\n";
  return NoMatchStatus;
}

} // namespace

void addIdentifySubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<IdentifyCommandLine>();
  CLI::App *Identify = Divtool.add_subcommand(
      "identify", "Say which variant of a population a binary, or a piece "
                  "of its code, is");
  addRegistryOptions(*Identify, C->Registry, C->SeedFile);
  Identify->add_flag("--json", C->Json, "Print the answer as JSON");
  Identify
      ->add_option("suspect", C->Suspect,
                   "A binary, a stripped binary, or raw code bytes")
      ->required();
  Identify->footer(
      "Matches the file's SHA-256, then its code's, then its code layout "
      "(samples of 32-byte windows) against every variant.\n\nExit status: "
      "0 when a variant is identified, 1 on bad input, 2 on a usage error, "
      "4 when no variant matches (\"none\").");
  runWhenChosen(*Identify, Run, C, runIdentifyCommand);
}

} // namespace divcc
