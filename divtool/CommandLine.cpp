//===- CommandLine.cpp - Options and words divtool's subcommands share ----===//

#include "divtool/CommandLine.h"

#include "support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace divcc {

void addSourceOption(CLI::App &Command, std::string &Source,
                     const std::string &Help) {
  Command.add_option("--source,-s", Source, Help);
}

void addGoldenOption(CLI::App &Command, std::string &Golden) {
  Command.add_option(
      "--golden", Golden,
      "For an install: its golden master (default: the recorded one; a copy "
      "with or without debug information, with the same code)");
}

void addJobsOption(CLI::App &Command, unsigned &Jobs, const std::string &Help) {
  Command.add_option("-j,--jobs", Jobs, Help)
      ->default_val(1)
      ->check(CLI::Range(1u, 256u));
}

CLI::Option *addSeedFileOption(CLI::App &Command, std::string &SeedFile,
                               const std::string &Help) {
  return Command.add_option("--seed-file,-k", SeedFile, Help);
}

void addRegistryOptions(CLI::App &Command, std::string &Registry,
                        std::string &SeedFile) {
  Command.add_option("--registry,-r", Registry, "The population's registry")
      ->required();
  addSeedFileOption(Command, SeedFile,
                    "The population's master secret (checked against the "
                    "registry)")
      ->required();
}

void addKeepFlag(CLI::App &Command, bool &Keep, const std::string &Help) {
  Command.add_flag("--keep", Keep, Help);
}

void addProgressFlag(CLI::App &Command, std::optional<bool> &Progress,
                     const std::string &Help) {
  Command.add_flag("--progress,!--no-progress", Progress, Help);
}

void addCommandArgument(CLI::App &Command, std::vector<std::string> &Words,
                        const std::string &Help) {
  Command.add_option("command", Words, Help);
}

Expected<std::string> resolveSourceTree(StringRef Dir) {
  StringRef Named = Dir.empty() ? "." : Dir;
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Named, Real))
    return makeError("source tree '" + Named + "': " + EC.message());
  if (!sys::fs::is_directory(Real))
    return makeError("source tree '" + Real + "' is not a directory");
  return std::string(Real);
}

std::string shellQuote(StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string shellWord(StringRef Word) {
  if (!Word.empty() && all_of(Word, [](char C) {
        return isAlnum(C) || StringRef("_./=:,@%+-").contains(C);
      }))
    return Word.str();
  return shellQuote(Word);
}

std::string shellJoin(ArrayRef<std::string> Words) {
  std::string Line;
  for (const std::string &W : Words)
    Line += (Line.empty() ? "" : " ") + shellWord(W);
  return Line;
}

Expected<std::vector<std::string>> splitCommand(StringRef Text,
                                                StringRef Option) {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 16> Words;
  cl::TokenizeGNUCommandLine(Text, Saver, Words);
  std::vector<std::string> Out;
  for (const char *W : Words)
    if (W)
      Out.push_back(W);
  if (Out.empty())
    return makeError(Option + " is empty: give the project's build command, "
                              "e.g. --build 'make CC=divcc'");
  return Out;
}

} // namespace divcc
