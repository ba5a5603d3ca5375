//===- SymbolizeCommand.cpp - `divtool symbolize`: a variant's crash ------===//
//
// A customer's crash report gives addresses in their variant, usually in a
// stripped binary. symbolize turns them into function, file and line.
//
// Where the debug information comes from, first found first:
//
//  1. As built: the population's tree still holds the artifact with line
//     tables and the registry's SHA-256 (population built it with -g, or
//     the build passes -g itself).
//  2. Kept: population (unless --no-keep-debug) built the variant with -g
//     and kept its debug information beside the registry, by build id
//     (DIR/.build-id/XX/REST.debug), which outlives the trees. The
//     binary's build id names the file; it describes exactly the bytes the
//     customer runs.
//  3. Regenerated: an install is laid out again from its golden master
//     (given with --golden if the recorded one has no debug information)
//     and BOLT's updated debug information describes its code. For a
//     variant, the recorded build command runs in a temporary copy of
//     the source tree with the variant's seed; every divcc or div++ it runs
//     by name is a small script that adds -g. A variant built with kept
//     debug information is rebuilt as it was built, -g included, and has
//     the registry's code. One built without -g may not: clang's -g changes
//     the generated code of some functions (it can change what the
//     optimizer sees). When the -g rebuild's executable segments are not
//     the registry's, the variant is also rebuilt exactly as shipped
//     (without -g; its code must be the registry's); functions are named
//     from that rebuild's symbols, and a function's file and line are
//     read from the -g rebuild only where it holds the same code for that
//     function: the same instructions, whose calls, jumps and RIP-relative
//     accesses reach the same places, though perhaps by other
//     displacements, since a function whose size -g changes moves the ones
//     after it (FunctionTable.h). Elsewhere only the function is given.
//
// Which case applies is said on standard error, for the run and for each
// address given only its function; standard output keeps
// llvm-symbolizer's format.
//
// The binary given must be the variant's artifact, or a copy of it with the
// same code (stripped by any tool): an address in another binary would be
// read against the wrong code.
//
//===----------------------------------------------------------------------===//

#include "analysis/Gadgets.h"
#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/population/FunctionTable.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Path.h"
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
  std::string Golden;
  bool Rebuild = false;
  bool Keep = false;
  std::string Binary;
  std::vector<std::string> Addresses;
};

/// The addresses on the command line (as llvm-symbolizer reads them: 0x
/// for hexadecimal), or every 0x... number in standard input.
Expected<std::vector<uint64_t>> readAddresses(ArrayRef<std::string> Args) {
  std::vector<uint64_t> Addresses;
  for (const std::string &Arg : Args) {
    uint64_t A;
    if (StringRef(Arg).getAsInteger(0, A))
      return makeError("invalid address '" + Arg +
                       "' (expected a number such as 0x401136)");
    Addresses.push_back(A);
  }
  if (!Args.empty())
    return Addresses;
  ErrorOr<std::unique_ptr<MemoryBuffer>> In = MemoryBuffer::getSTDIN();
  if (!In)
    return makeError("cannot read standard input: " + In.getError().message());
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
    return makeError(
        "no addresses: give them as arguments, or on standard input "
        "as 0x... numbers");
  return Addresses;
}

/// The artifact of \p Artifacts that \p Binary is (or a copy of its code).
Expected<ArtifactRecord> artifactOf(StringRef Binary, const VariantRecord &V,
                                    ArrayRef<ArtifactRecord> Artifacts) {
  if (!sys::fs::exists(Binary))
    return makeError("cannot read '" + Binary + "': No such file or directory");
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
  return makeError("'" + Binary + "' is not an artifact of " +
                   describeVariant(V) +
                   ": neither its SHA-256 nor its code matches the registry's "
                   "(divtool identify tells which variant it is)");
}

/// Where the line information comes from.
struct DebugSource {
  /// The file whose DWARF describes the customer's code, or (with Exact)
  /// that of a -g rebuild whose code may differ.
  std::string DebugFile;
  /// Set when DebugFile's code is not the customer's: the exact rebuild.
  std::optional<FunctionTable> Exact, WithDebug;
  /// Decodes both when their bytes differ.
  std::unique_ptr<Disassembler> Decoder;
  /// Prefixes removed from file names: the trees and the source tree.
  std::vector<std::string> Roots;
};

void printFrames(const DIInliningInfo &Info, ArrayRef<std::string> Roots) {
  if (Info.getNumberOfFrames() == 0)
    outs() << "??\n??:0:0\n";
  for (uint32_t I = 0; I < Info.getNumberOfFrames(); ++I) {
    const DILineInfo &Frame = Info.getFrame(I);
    StringRef Function = Frame.FunctionName;
    StringRef File = Frame.FileName;
    if (Function == DILineInfo::BadString)
      Function = "??";
    if (File == DILineInfo::BadString)
      File = "??";
    // Files of the source tree, or of a (temporary) tree, are named
    // relative to its root.
    for (const std::string &Root : Roots)
      if (File.consume_front(Root))
        break;
    outs() << Function << "\n"
           << File << ":" << Frame.Line << ":" << Frame.Column << "\n";
  }
}

Error symbolizeAll(const DebugSource &D, ArrayRef<uint64_t> Addresses) {
  symbolize::LLVMSymbolizer::Options Opts;
  Opts.PathStyle = DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
  Opts.Demangle = true;
  symbolize::LLVMSymbolizer Symbolizer(Opts);
  for (uint64_t Address : Addresses) {
    outs() << format("0x%" PRIx64, Address) << "\n";
    uint64_t Lookup = Address;
    if (D.Exact) {
      const FunctionTable::Function *F = D.Exact->at(Address);
      const FunctionTable::Function *G =
          F ? D.WithDebug->find(F->Name, F->Rank) : nullptr;
      if (!F || !G || !sameCode(*D.Exact, *F, *D.WithDebug, *G, *D.Decoder)) {
        noteStream() << format("0x%" PRIx64, Address) << ": regenerated, "
               << (F ? "function only (-g changes the code of " +
                           demangle(F->Name) + ")"
                     : std::string("in no function of the symbol table"))
               << "\n";
        outs() << (F ? demangle(F->Name) : "??") << "\n??:0:0\n\n";
        continue;
      }
      Lookup = G->Address + (Address - F->Address);
    }
    Expected<DIInliningInfo> Info = Symbolizer.symbolizeInlinedCode(
        D.DebugFile, {Lookup, object::SectionedAddress::UndefSection});
    if (!Info)
      return Info.takeError();
    printFrames(*Info, D.Roots);
    outs() << "\n";
  }
  return Error::success();
}

/// Rebuilds \p V (with -g if \p DebugInfo) and checks that the artifact
/// exists; sets \p File to it.
Expected<RebuiltVariant> rebuild(const SymbolizeCommandLine &C,
                                 const VariantRecord &V, const MasterKey &Key,
                                 StringRef RegistryPath,
                                 const ArtifactRecord &A, bool DebugInfo,
                                 std::string &File) {
  RebuildOptions Options;
  Options.Source = C.Source;
  Options.Golden = C.Golden;
  Options.SeedFile = C.SeedFile;
  Options.DebugInfo = DebugInfo;
  Options.Keep = C.Keep;
  Options.Tool = "divtool symbolize";
  Expected<RebuiltVariant> R = rebuildVariant(V, Key, RegistryPath, Options);
  if (!R)
    return R.takeError();
  File = R->Tree + "/" + A.Path;
  if (!sys::fs::exists(File))
    return makeError("the rebuild of " + V.Id + " did not produce '" + A.Path +
                     "'");
  if (C.Keep)
    noteStream() << "the rebuilt tree is kept in '" << R->Tree
           << "'\n";
  return R;
}

Expected<std::string> codeOf(StringRef File) {
  Expected<ElfImage> Image = ElfImage::open(File);
  if (!Image)
    return Image.takeError();
  return codeSha256(*Image);
}

int runSymbolizeCommand(const SymbolizeCommandLine &C,
                        const DivccEnvironment &) {
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
    return reportError(makeError("artifact '" + A->Path + "' of " + V->Id +
                                 " is not an ELF executable or shared object"));
  Expected<std::vector<uint64_t>> Addresses = readAddresses(C.Addresses);
  if (!Addresses)
    return reportError(Addresses.takeError());

  DebugSource D;
  D.Roots = {V->SourceDir + "/", V->Tree + "/"};
  SmallString<256> Root(sys::path::parent_path(Reg.path()));
  sys::fs::make_absolute(Root);
  std::string BuildId = buildIdOf(C.Binary);
  std::string Kept = BuildId.empty() ? "" : keptDebugFile(Root, BuildId);
  std::optional<RebuiltVariant> Rebuilt, ExactRebuild;

  // 1. The population's tree, if it still holds the artifact as built, with
  // line tables (the file the kept debug information was taken from).
  if (!C.Rebuild) {
    std::string Built = V->Tree + "/" + A->Path;
    if (hasLineTables(Built)) {
      Expected<std::string> Sha = fileSha256(Built);
      if (Sha && *Sha == A->Sha256) {
        D.DebugFile = Built;
        noteStream() << "debug information from '" << Built
               << "' (as built; its SHA-256 is the registry's)\n";
      }
      if (!Sha)
        consumeError(Sha.takeError());
    }
  }
  // 2. The debug information population kept, by the binary's build id.
  if (D.DebugFile.empty() && !C.Rebuild && !Kept.empty() && hasLineTables(Kept)) {
    D.DebugFile = Kept;
    noteStream() << "kept debug information '" << Kept
           << "' (build id " << BuildId << ")\n";
  }
  // 3. Regenerated from the seed.
  if (D.DebugFile.empty()) {
    std::string File;
    Expected<RebuiltVariant> R = rebuild(C, *V, Key, Reg.path(), *A,
                                         /*DebugInfo=*/true, File);
    if (!R)
      return reportError(R.takeError());
    Rebuilt.emplace(std::move(*R));
    D.Roots.push_back(Rebuilt->Tree + "/");
    if (!hasLineTables(File) && V->isInstall())
      return reportError(makeError(
          "golden master '" + V->SourceDir +
          "' has no debug information: give a copy with it (built with -g; "
          "its code is the same) with --golden"));
    if (!hasLineTables(File))
      return reportError(makeError(
          "the rebuild of '" + A->Path +
          "' has no debug information: the "
          "build command must run divcc or div++ by name (through PATH, a "
          "CC=/CXX= argument, or $CC/$CXX) for symbolize to add -g"));
    Expected<std::string> Code = codeOf(File);
    if (!Code)
      return reportError(Code.takeError());
    D.DebugFile = File;
    if (*Code == A->CodeSha256) {
      noteStream() << "debug information from the rebuild (its "
                "code is the registry's): regenerated with matching code\n";
    } else if (V->KeptDebugInfo || V->isInstall()) {
      // Built with -g in the first place, or laid out by BOLT, which keeps
      // the code whatever the debug information: nothing to compare with.
      return reportError(makeError(
          "the rebuild of " + V->Id + " has other code than the registry's '" +
          A->Path +
          "': the source tree, the compiler or the build changed since the "
          "population was built (divtool verify tells more)"));
    } else {
      // -g changed code: rebuild exactly as shipped, and take lines only
      // from functions the -g rebuild left alone.
      noteStream() << "the rebuild with -g has other code than "
                "the registry's (-g changes the code of some functions); "
                "rebuilding without it\n";
      std::string ExactFile;
      Expected<RebuiltVariant> E = rebuild(C, *V, Key, Reg.path(), *A,
                                           /*DebugInfo=*/false, ExactFile);
      if (!E)
        return reportError(E.takeError());
      ExactRebuild.emplace(std::move(*E));
      Expected<std::string> ExactCode = codeOf(ExactFile);
      if (!ExactCode)
        return reportError(ExactCode.takeError());
      if (*ExactCode != A->CodeSha256)
        return reportError(makeError(
            "the rebuild of " + V->Id +
            " has other code than the registry's '" + A->Path +
            "': the source tree, the compiler or the build changed since the "
            "population was built (divtool verify tells more)"));
      Expected<FunctionTable> Exact = FunctionTable::read(ExactFile);
      if (!Exact)
        return reportError(Exact.takeError());
      Expected<FunctionTable> WithDebug = FunctionTable::read(File);
      if (!WithDebug)
        return reportError(WithDebug.takeError());
      Expected<std::unique_ptr<Disassembler>> Decoder = Exact->disassembler();
      if (!Decoder)
        return reportError(Decoder.takeError());
      D.Decoder = std::move(*Decoder);
      D.Exact.emplace(std::move(*Exact));
      D.WithDebug.emplace(std::move(*WithDebug));
      noteStream() << "debug information from the rebuild with "
                "-g, for functions whose code it left unchanged: "
                "regenerated with matching code, or regenerated, function "
                "only\n";
    }
  }

  if (Error E = symbolizeAll(D, *Addresses))
    return reportError(std::move(E));
  return 0;
}

} // namespace

void addSymbolizeSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<SymbolizeCommandLine>();
  CLI::App *Symbolize = Divtool.add_subcommand(
      "symbolize", "Turn addresses in a shipped (stripped) variant into "
                   "functions, files and lines");
  addRegistryOptions(*Symbolize, C->Registry, C->SeedFile);
  Symbolize
      ->add_option("--variant", C->Variant,
                   "The variant or install BINARY is (an install by its id)")
      ->required();
  addGoldenOption(*Symbolize, C->Golden);
  addSourceOption(*Symbolize, C->Source,
                  "The source tree (default: the one the population was "
                  "built from)");
  Symbolize->add_flag("--rebuild", C->Rebuild,
                      "Regenerate the debug information from the seed even "
                      "if the population kept it");
  addKeepFlag(*Symbolize, C->Keep, "Keep the temporary tree of the rebuild");
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
      "empty line, like llvm-symbolizer --print-address. The debug "
      "information is the artifact as built in the population's tree, else "
      "the one population kept (DIR/.build-id, by BINARY's build id), else "
      "a rebuild from the seed; "
      "stderr says which, and names addresses given only their function "
      "(where -g changes the code of a population built without it)."
      "\n\nExit status: 0 "
      "on success, 1 on bad input or a failed rebuild, 2 on a usage error.");
  runWhenChosen(*Symbolize, Run, C, runSymbolizeCommand);
}

} // namespace divcc
