//===- InstallRecord.cpp - An install as a row of the registry ------------===//

#include "divtool/install/InstallRecord.h"

#include "divtool/population/VariantBuild.h"
#include "registry/Artifacts.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace divcc {

static std::string realPath(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

Expected<VariantRecord> installRecord(StringRef InstallId, StringRef Golden,
                                      StringRef Output,
                                      const InstallOptions &Options,
                                      const InstallResult &Result) {
  VariantRecord V;
  V.Id = installRecordId(InstallId, Result.GoldenCodeSha256);
  V.Label = InstallId.str();
  V.GoldenCodeSha256 = Result.GoldenCodeSha256;
  V.SeedDerivation = installSeedDerivation(InstallId);
  std::string Bolt = Options.Bolt;
  if (ErrorOr<std::string> Found = sys::findProgramByName(Bolt))
    Bolt = *Found;
  V.Compiler = "llvm-bolt " + compilerIdentity(Bolt);
  V.SourceDir = realPath(Golden);
  V.Tree = realPath(sys::path::parent_path(Output).empty()
                        ? "."
                        : sys::path::parent_path(Output));
  V.BuildCommand = {"divtool", "rerandomize", "--install", InstallId.str()};
  if (Options.Blocks)
    V.BuildCommand.push_back("--blocks");
  if (Options.AlignBranches)
    V.BuildCommand.push_back("--align-branches");
  V.BuildCommand.insert(V.BuildCommand.end(),
                        {"-o", sys::path::filename(Output).str(), V.SourceDir});
  V.Status = "built";
  return V;
}

Expected<RecordedInstall> recordedInstall(const VariantRecord &Install,
                                          StringRef Golden) {
  const std::vector<std::string> &Command = Install.BuildCommand;
  auto Output = llvm::find(Command, "-o");
  if (!Install.isInstall() || Output == Command.end() ||
      std::next(Output) == Command.end())
    return makeError("the registry's row of install '" + Install.Label +
                     "' does not say how it was laid out");
  RecordedInstall R;
  R.InstallId = Install.Label;
  R.Artifact = *std::next(Output);
  R.Options.Blocks = llvm::is_contained(Command, "--blocks");
  R.Options.AlignBranches = llvm::is_contained(Command, "--align-branches");
  R.Golden = Golden.empty() ? Install.SourceDir : Golden.str();
  Expected<ElfImage> Image = ElfImage::open(R.Golden);
  if (!Image)
    return makeError("golden master '" + R.Golden + "'" +
                     (Golden.empty() ? " (as recorded)" : "") +
                     " cannot be read: " + toString(Image.takeError()) +
                     (Golden.empty() ? "; name it with --golden" : ""));
  if (codeSha256(*Image) != Install.GoldenCodeSha256)
    return makeError("'" + R.Golden + "' is not the golden master install '" +
                     Install.Label +
                     "' was laid out from: its code is not the recorded "
                     "one (SHA-256 " +
                     Install.GoldenCodeSha256.substr(0, 12) + "...)");
  return R;
}

} // namespace divcc
