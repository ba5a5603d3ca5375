//===- RemoteCompile.h - Compiles handed to distcc, ccache, sccache -------===//
//
// A compile farm such as distcc ships a compile's command line and
// preprocessed source to another host, and nothing else: no seed file, no
// environment. divcc therefore never lets the seed travel; it derives the
// variant's master key here and the remote compile gets only that key.
//
// A compiler cache (ccache, sccache) keys its objects by the command line
// and the source, and nothing else: not a seed file's contents, not the
// environment. The same key on the command line makes it cache one object
// per variant.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_REMOTECOMPILE_H
#define DIVCC_DRIVER_REMOTECOMPILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace divcc {

struct Config;

/// DIVCC_PREFIX=COMMAND (like ccache's CCACHE_PREFIX): runs a compile
/// (-c or -S) through COMMAND, e.g. distcc, as `COMMAND divcc ARGS
/// -fdiversify-key=HEX`, with the seed options removed from ARGS and
/// DIVCC_PREFIX and DIVCC_SEED_FILE removed from the environment. Returns
/// the exit code, or nullopt if this invocation is not one to hand over.
/// \p Argv is divcc's own argv.
std::optional<int> runThroughPrefix(llvm::ArrayRef<const char *> Argv,
                                    const Config &Cfg);

/// Refuses a compile distcc runs (on this or another host) when no seed was
/// given: every host would draw its own, and the program could be neither
/// rebuilt nor symbolized.
llvm::Error checkSeedUnderDistcc(llvm::ArrayRef<const char *> Argv,
                                 const Config &Cfg);

/// Refuses a compile that ccache or sccache runs (this process's parent)
/// when the variant is not fixed by what the cache hashes: the command line
/// and, for ccache, the files of its extra_files_to_hash. Otherwise the
/// cache would return another variant's object for this one.
llvm::Error checkVariantUnderCompilerCache(llvm::ArrayRef<const char *> Argv,
                                           const Config &Cfg);

} // namespace divcc

#endif
