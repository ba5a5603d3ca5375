//===- LinkerPluginProtocol.h - divcc and its GNU ld plugin ---------------===//
//
// An LTO link through GNU ld (BFD) or gold runs once, with divcc's linker
// plugin (tools/divcc-ld-plugin) in place of LLVMgold.so. The plugin does
// all LLVMgold does but generate code: each module it would compile is
// written to divcc's private directory and handed to divcc, which compiles
// it in a process of its own -- the key never enters the linker -- and
// answers when every object is written. The plugin then adds the objects
// to the link, in task order, as LLVMgold adds its own.
//
// The channel is one socket, inherited by the linker; its number is on the
// linker's command line. Every message is one line:
//
//   plugin -> divcc   "link OUTPUT-KIND OPT-LEVEL JOBS"   first, once
//                     "llvm-option ARG"              the LLVM options of
//                                                    the link, in order
//                     "module TASK"                  TASK.bc is written
//                     "end"                          no more modules
//   divcc -> plugin   "done" | "failed"              after "end"
//
// Only file names and numbers cross it, never a secret.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_LINKERPLUGINPROTOCOL_H
#define DIVCC_SUPPORT_LINKERPLUGINPROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace divcc::linker_plugin {

/// The plugin options divcc adds (-plugin-opt=NAME=VALUE).
inline constexpr llvm::StringLiteral SocketOption = "divcc-fd=";
inline constexpr llvm::StringLiteral DirectoryOption = "divcc-dir=";

inline constexpr llvm::StringLiteral LinkMessage = "link";
inline constexpr llvm::StringLiteral LlvmOptionMessage = "llvm-option";
inline constexpr llvm::StringLiteral ModuleMessage = "module";
inline constexpr llvm::StringLiteral EndMessage = "end";
inline constexpr llvm::StringLiteral DoneReply = "done";
inline constexpr llvm::StringLiteral FailedReply = "failed";

/// What the linker writes (LDPT_LINKER_OUTPUT), as the link message says it.
inline constexpr llvm::StringLiteral RelocatableOutput = "rel";
inline constexpr llvm::StringLiteral ExecutableOutput = "exec";
inline constexpr llvm::StringLiteral SharedOutput = "dyn";
inline constexpr llvm::StringLiteral PieOutput = "pie";

/// Task TASK's optimized module and its object, in the directory \p Dir.
inline std::string modulePath(llvm::StringRef Dir, unsigned Task) {
  return (Dir + "/task" + llvm::Twine(Task) + ".bc").str();
}
inline std::string objectPath(llvm::StringRef Dir, unsigned Task) {
  return (Dir + "/task" + llvm::Twine(Task) + ".o").str();
}

} // namespace divcc::linker_plugin

#endif
