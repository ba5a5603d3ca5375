//===- SymbolizeCommand.cpp - `divtool symbolize`: a variant's crash ------===//
//
// A customer's crash report gives addresses in their variant, usually in a
// stripped binary. symbolize turns them into function, file and line.
//
// Where the debug information comes from: the variant is regenerated from
// its source and seed with -g, which divcc guarantees changes no
// instruction (docs/manual.md). The recorded build command runs in a
// temporary copy of the source tree; every divcc or div++ it runs by name
// (through PATH, a CC=/CXX= argument or $CC/$CXX) is a small script that
// adds -g. The rebuilt artifact's executable segments must hash exactly as
// the registry recorded at population time, so the line tables describe
// the very bytes the customer runs. If the population's own tree still
// holds the artifact as built, with line tables (a build that uses -g
// itself) and the registry's SHA-256, it is used instead of a rebuild.
//
// The binary given must be the variant's artifact, or a copy of it with the
// same code (stripped by any tool): an address in another binary would be
// read against the wrong code.
//
//===----------------------------------------------------------------------===//

#include "divtool/Subcommands.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/DIContext.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

struct SymbolizeCommandLine {
  std::string Registry;
  std::string SeedFile;
  std::string Variant;
  std::string Source;
  bool Rebuild = false;
  bool Keep = false;
  std::string Binary;
  std::vector<std::string> Addresses;
};

Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// The addresses on the command line (as llvm-symbolizer reads them: 0x
/// for hexadecimal), or every 0x... number in standard input.
Expected<std::vector<uint64_t>> readAddresses(ArrayRef<std::string> Args) {
  std::vector<uint64_t> Addresses;
  for (const std::string &Arg : Args) {
    uint64_t A;
    if (StringRef(Arg).getAsInteger(0, A))
      return fail("invalid address '" + Arg +
                  "' (expected a number such as 0x401136)");
    Addresses.push_back(A);
  }
  if (!Args.empty())
    return Addresses;
  ErrorOr<std::unique_ptr<MemoryBuffer>> In = MemoryBuffer::getSTDIN();
  if (!In)
    return fail("cannot read standard input: " + In.getError().message());
  StringRef Text = (*In)->getBuffer();
  for (size_t I = 0; I + 2 < Text.size(); ++I) {
    if (Text[I] != '0' || (Text[I + 1] != 'x' && Text[I + 1] != 'X') ||
        !isHexDigit(Text[I + 2]) || (I > 0 && isAlnum(Text[I - 1])))
      continue;
    size_t End = I + 2;
    while (End < Text.size() && isHexDigit(Text[End]))
      ++End;
    uint64_t A;
    if (!Text.slice(I + 2, End).getAsInteger(16, A))
      Addresses.push_back(A);
    I = End - 1;
  }
  if (Addresses.empty())
    return fail("no addresses: give them as arguments, or on standard input "
                "as 0x... numbers");
  return Addresses;
}

/// The artifact of \p Artifacts that \p Binary is (or a copy of its code).
Expected<ArtifactRecord> artifactOf(StringRef Binary, const VariantRecord &V,
                                    ArrayRef<ArtifactRecord> Artifacts) {
  if (!sys::fs::exists(Binary))
    return fail("cannot read '" + Binary + "': No such file or directory");
  Expected<std::string> Sha = fileSha256(Binary);
  if (!Sha)
    return Sha.takeError();
  std::string Code;
  if (Expected<ElfImage> Image = ElfImage::open(Binary))
    Code = codeSha256(*Image);
  else
    consumeError(Image.takeError());
  for (const ArtifactRecord &A : Artifacts)
    if (*Sha == A.Sha256 ||
        (!A.StrippedSha256.empty() && *Sha == A.StrippedSha256) ||
        (!Code.empty() && Code == A.CodeSha256))
      return A;
  return fail("'" + Binary + "' is not an artifact of " + describeVariant(V) +
              ": neither its SHA-256 nor its code matches the registry's "
              "(divtool identify tells which variant it is)");
}

int runSymbolizeCommand(const SymbolizeCommandLine &C) {
  Expected<OpenPopulation> Population = openPopulation(C.Registry, C.SeedFile);
  if (!Population)
    return reportError(Population.takeError());
  Registry &Reg = Population->Reg;
  const MasterKey &Key = Population->Key;
  Expected<VariantRecord> V = Reg.builtVariant(C.Variant);
  if (!V)
    return reportError(V.takeError());
  Expected<std::vector<ArtifactRecord>> Artifacts = Reg.artifacts(V->Id);
  if (!Artifacts)
    return reportError(Artifacts.takeError());
  Expected<ArtifactRecord> A = artifactOf(C.Binary, *V, *Artifacts);
  if (!A)
    return reportError(A.takeError());
  if (A->CodeSha256.empty())
    return reportError(fail("artifact '" + A->Path + "' of " + V->Id +
                            " is not an ELF executable or shared object"));
  Expected<std::vector<uint64_t>> Addresses = readAddresses(C.Addresses);
  if (!Addresses)
    return reportError(Addresses.takeError());

  // The population's tree, if it still holds the artifact as built, with
  // line tables; else a rebuild with -g.
  std::string Tree = V->Tree;
  std::string DebugFile = Tree + "/" + A->Path;
  std::optional<RebuiltVariant> Rebuilt;
  bool UseKept = false;
  if (!C.Rebuild && hasLineTables(DebugFile)) {
    Expected<std::string> Sha = fileSha256(DebugFile);
    UseKept = Sha && *Sha == A->Sha256;
    if (!Sha)
      consumeError(Sha.takeError());
  }
  if (UseKept) {
    errs() << "divtool symbolize: debug information from '" << DebugFile
           << "' (as built; its SHA-256 is the registry's)\n";
  } else {
    RebuildOptions Options;
    Options.Source = C.Source;
    Options.SeedFile = C.SeedFile;
    Options.DebugInfo = true;
    Options.Keep = C.Keep;
    Options.Tool = "divtool symbolize";
    Expected<RebuiltVariant> R = rebuildVariant(*V, Key, Reg.path(), Options);
    if (!R)
      return reportError(R.takeError());
    Rebuilt.emplace(std::move(*R));
    Tree = Rebuilt->Tree;
    DebugFile = Tree + "/" + A->Path;
    if (!sys::fs::exists(DebugFile))
      return reportError(fail("the rebuild of " + V->Id + " did not produce '" +
                              A->Path + "'"));
    Expected<ElfImage> Image = ElfImage::open(DebugFile);
    if (!Image)
      return reportError(Image.takeError());
    if (codeSha256(*Image) != A->CodeSha256)
      return reportError(
          fail("the rebuild of " + V->Id +
               " with debug information has other "
               "code than the registry's '" +
               A->Path +
               "': the source tree, "
               "the compiler or the build changed since the population was "
               "built (divtool verify tells more)"));
    if (!hasLineTables(DebugFile))
      return reportError(
          fail("the rebuild of '" + A->Path +
               "' has no debug information: the "
               "build command must run divcc or div++ by name (through PATH, a "
               "CC=/CXX= argument, or $CC/$CXX) for symbolize to add -g"));
    errs() << "divtool symbolize: debug information from the rebuild (its "
              "code is the registry's)\n";
  }
  if (C.Keep && Rebuilt)
    errs() << "divtool symbolize: the rebuilt tree is kept in '" << Tree
           << "'\n";

  symbolize::LLVMSymbolizer::Options Opts;
  Opts.PathStyle = DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
  Opts.Demangle = true;
  symbolize::LLVMSymbolizer Symbolizer(Opts);
  std::string TreePrefix = Tree + "/";
  for (uint64_t Address : *Addresses) {
    outs() << format("0x%" PRIx64, Address) << "\n";
    Expected<DIInliningInfo> Info = Symbolizer.symbolizeInlinedCode(
        DebugFile, {Address, object::SectionedAddress::UndefSection});
    if (!Info)
      return reportError(Info.takeError());
    if (Info->getNumberOfFrames() == 0)
      outs() << "??\n??:0:0\n";
    for (uint32_t I = 0; I < Info->getNumberOfFrames(); ++I) {
      const DILineInfo &Frame = Info->getFrame(I);
      StringRef Function = Frame.FunctionName;
      StringRef File = Frame.FileName;
      if (Function == DILineInfo::BadString)
        Function = "??";
      if (File == DILineInfo::BadString)
        File = "??";
      // Files of the (temporary) tree are named relative to its root.
      File.consume_front(TreePrefix);
      outs() << Function << "\n"
             << File << ":" << Frame.Line << ":" << Frame.Column << "\n";
    }
    outs() << "\n";
  }
  return 0;
}

} // namespace

void addSymbolizeSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<SymbolizeCommandLine>();
  CLI::App *Symbolize = Divtool.add_subcommand(
      "symbolize", "Turn addresses in a shipped (stripped) variant into "
                   "functions, files and lines");
  addRegistryOptions(*Symbolize, C->Registry, C->SeedFile);
  Symbolize->add_option("--variant", C->Variant, "The variant BINARY is")
      ->required();
  Symbolize->add_option("--source,-s", C->Source,
                        "The source tree (default: the one the population "
                        "was built from)");
  Symbolize->add_flag("--rebuild", C->Rebuild,
                      "Rebuild with -g even if the population's tree keeps "
                      "the artifact with debug information");
  Symbolize->add_flag("--keep", C->Keep,
                      "Keep the temporary tree of the rebuild");
  Symbolize
      ->add_option("binary", C->Binary,
                   "The variant's binary the addresses are in (may be "
                   "stripped)")
      ->required();
  Symbolize->add_option("addresses", C->Addresses,
                        "Addresses (0x... for hexadecimal); without them, "
                        "every 0x... number in standard input");
  Symbolize->footer(
      "Addresses are virtual addresses in BINARY, as nm and objdump show "
      "them (for a position-independent executable, the offset from where "
      "it is loaded). For each, prints the address, then the function and "
      "FILE:LINE:COLUMN of each inlined frame, innermost first, then an "
      "empty line, like llvm-symbolizer --print-address.\n\nExit status: 0 "
      "on success, 1 on bad input or a failed rebuild, 2 on a usage error.");
  Symbolize->callback(
      [&Run, C] { Run = [C] { return runSymbolizeCommand(*C); }; });
}

} // namespace divcc
