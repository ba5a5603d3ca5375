//===- LtoLinkPlan.h - The command lines of an LTO link's steps -----------===//
//
// What the three steps of an LTO link (LtoLink.h) run is decided from the
// linker's arguments alone, by planLtoLink: which arguments are inputs and
// which hold bitcode, what lld's own LTO options say about code generation,
// how many back ends may run at once, and the command lines of step 1 and
// step 3. It is a pure function: what it must know of files -- what an
// input holds, what a response file says, which library a -l finds -- it
// asks a LinkFiles, so it is tested without a linker and without files
// (tests/unit/LtoLinkPlanTest.cpp). A second linker plugs in here.
//
// The linker options divcc must understand are one table in
// LtoLinkPlan.cpp, in the manner of ccache's compopt.cpp: those whose value
// is the next argument, those that configure the linker's own LTO (left
// out of the final link), and those divcc refuses because they ask the
// linker for an output the three steps cannot give.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_LTOLINKPLAN_H
#define DIVCC_DRIVER_LTOLINKPLAN_H

#include "codegen/LtoBackend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

/// What an input of the link holds.
enum class InputKind {
  Native,             // left as it is
  Bitcode,            // an LTO module: left out of the final link
  FatObject,          // native code and bitcode, linked as bitcode
  ArchiveWithBitcode, // replaced by its native members in the final link
};

/// What planLtoLink may know of the file system.
class LinkFiles {
public:
  virtual ~LinkFiles() = default;
  /// What the file \p Path holds (Native if it is not a readable file);
  /// with \p FatLto (--fat-lto-objects), an object with a .llvm.lto
  /// section holds bitcode.
  virtual InputKind classify(llvm::StringRef Path, bool FatLto) const = 0;
  virtual bool isFile(llvm::StringRef Path) const = 0;
  /// The text of the response file \p Path, or nothing if it cannot be read.
  virtual std::optional<std::string>
  readResponseFile(llvm::StringRef Path) const = 0;
  /// \p Path made absolute, without "." and ".." components.
  virtual std::string absolute(llvm::StringRef Path) const = 0;
};

/// The files step 1 writes and step 2 reads, in the link's private
/// directory.
struct LtoTempFiles {
  explicit LtoTempFiles(llvm::StringRef Dir);
  std::string Dir;
  std::string IndexPrefix;   // ThinLTO indexes: IndexPrefix + module path
  std::string RegularModule; // the merged regular LTO module
  std::string ThinList;      // the ThinLTO modules lld kept, one a line
  std::string WhyExtract;    // which symbol loaded which archive member
};

/// One input of the link that holds bitcode.
struct LtoInput {
  size_t Argument;   // its index in LtoLinkPlan::Args
  InputKind Kind;    // never Native
  std::string Path;  // absolute: lld names its modules by their paths
};

struct LtoLinkPlan {
  /// The linker's arguments, response files expanded, each -l that finds
  /// an archive holding bitcode replaced by that archive's path.
  std::vector<std::string> Args;
  std::vector<LtoInput> Inputs;
  /// Whether the link generates code from bitcode at all: an input holds
  /// bitcode, or an option configures the linker's LTO.
  bool GeneratesCode = false;
  bool FatLto = false; // --fat-lto-objects
  LtoCodeGenOptions CodeGen;
  /// ThinLTO back ends at once (--thinlto-jobs=, --plugin-opt=jobs=); 0:
  /// one per core, as lld.
  unsigned BackendJobs = 0;

  /// Step 1: the link that resolves symbols, writes the regular module and
  /// each ThinLTO module's index into \p Temp.
  std::vector<std::string> resolveArgs(const LtoTempFiles &Temp) const;

  /// Step 3: the link of native code only. \p Replacement holds, for each
  /// argument of Args that is an LTO input, what takes its place (a stub
  /// object or a copy of an archive's native members), or "" to leave it
  /// out; \p Objects are step 2's, placed last.
  std::vector<std::string>
  finalArgs(llvm::ArrayRef<std::string> Replacement,
            llvm::ArrayRef<std::string> Objects) const;
};

/// Plans the LTO link whose linker arguments are \p LinkerArgs. An error
/// names an option divcc cannot honour or a response file it cannot read.
llvm::Expected<LtoLinkPlan> planLtoLink(llvm::ArrayRef<std::string> LinkerArgs,
                                        const LinkFiles &Files);

/// An LTO link through GNU ld (BFD) or gold runs once, with divcc's linker
/// plugin in place of LLVMgold.so (support/LinkerPluginProtocol.h).

/// Whether \p LinkerArgs load LLVMgold.so: clang set up an LTO link for a
/// linker with plugins.
bool loadsLlvmGoldPlugin(llvm::ArrayRef<std::string> LinkerArgs);

/// Whether \p Linker is GNU ld or gold (ld, ld.bfd, ld.gold, TRIPLE-ld...),
/// whose plugin interface divcc's linker plugin was checked against.
bool isGnuLinker(llvm::StringRef Linker);

/// \p LinkerArgs with divcc's linker plugin \p Plugin in place of
/// LLVMgold.so; with a \p Socket to divcc (>= 0), the options that tell
/// the plugin (LLVMgold's place or \p Plugin) that socket and divcc's
/// private directory \p Dir follow it.
std::vector<std::string>
withDivccLinkerPlugin(llvm::ArrayRef<std::string> LinkerArgs,
                      llvm::StringRef Plugin, int Socket = -1,
                      llvm::StringRef Dir = "");

} // namespace divcc

#endif
