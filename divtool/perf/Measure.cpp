//===- Measure.cpp - `divtool perf`: building and timing the variants -----===//

#include "divtool/CommandLine.h"
#include "divtool/perf/Perf.h"
#include "divtool/population/Population.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/resource.h>

using namespace llvm;

namespace divcc {

Error buildVariants(const PerfOptions &C, BuildResult &B, const MasterKey &Key,
                    StringRef Out, const DivccEnvironment &Env) {
  PopulationOptions O;
  O.Count = C.Variants;
  O.Out = Out.str();
  O.SeedFile = C.SeedFile;
  O.Jobs = C.Jobs;
  O.Source = B.Source;
  O.Progress = C.Progress;
  O.Command = B.Command;
  O.Tool = "divtool perf" + (B.Name == "build" ? "" : " [" + B.Name + "]");
  errs() << O.Tool << ": building " << C.Variants << " variants with '"
         << shellJoin(B.Command) << "'"
         << (B.Source.empty() ? "" : " from '" + B.Source + "'") << "\n";
  Expected<PopulationBuilt> Built = buildPopulation(O, Key, Env);
  if (!Built)
    return Built.takeError();
  if (Built->Failed)
    return makeError(Twine(Built->Failed) + " of " + Twine(C.Variants) +
                     " variants of " +
                     (B.Name == "build" ? "the build" : "build " + B.Name) +
                     " failed to build; their trees and logs are in " +
                     Built->Out + "/variants");
  B.Out = Built->Out;
  B.RegistryPath = Built->RegistryPath;
  Expected<OpenPopulation> Pop = openPopulation(B.RegistryPath, Key);
  if (!Pop)
    return Pop.takeError();
  for (const std::string &Id : Built->Ids) {
    Expected<VariantRecord> V = Pop->Reg.builtVariant(Id);
    if (!V)
      return V.takeError();
    B.Variants.push_back(std::move(*V));
  }
  for (MetricData &D : B.Data)
    D.Runs.resize(B.Variants.size());
  return Error::success();
}

bool sameArtifacts(const BuildResult &A, const BuildResult &B,
                   const MasterKey &Key) {
  Expected<OpenPopulation> PA = openPopulation(A.RegistryPath, Key);
  Expected<OpenPopulation> PB = openPopulation(B.RegistryPath, Key);
  if (!PA || !PB) {
    consumeError(PA.takeError());
    consumeError(PB.takeError());
    return false;
  }
  for (size_t I = 0; I < A.Variants.size(); ++I) {
    auto FA = PA->Reg.artifacts(A.Variants[I].Id);
    auto FB = PB->Reg.artifacts(B.Variants[I].Id);
    if (!FA || !FB) {
      consumeError(FA.takeError());
      consumeError(FB.takeError());
      return false;
    }
    if (FA->size() != FB->size())
      return false;
    for (size_t J = 0; J < FA->size(); ++J)
      if ((*FA)[J].Path != (*FB)[J].Path || (*FA)[J].Sha256 != (*FB)[J].Sha256)
        return false;
  }
  return true;
}

static double seconds(const struct timeval &T) {
  return double(T.tv_sec) + double(T.tv_usec) * 1e-6;
}

Error addCachegrindTotals(StringRef Text, StringRef File,
                          StringMap<uint64_t> &Totals) {
  SmallVector<StringRef, 16> Events, Counts;
  bool Summary = false;
  for (StringRef Rest = Text; !Rest.empty() && !Summary;) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    if (Line.consume_front("events:"))
      Line.split(Events, ' ', -1, /*KeepEmpty=*/false);
    else if (Line.consume_front("summary:")) {
      Line.split(Counts, ' ', -1, /*KeepEmpty=*/false);
      Summary = true;
    }
  }
  if (!Summary)
    return makeError("valgrind's output '" + File + "' has no summary line");
  if (Events.empty())
    return makeError("valgrind's output '" + File + "' has no events line");
  if (Counts.size() > Events.size())
    return makeError("valgrind's output '" + File +
                     "' has more counts in its summary line than events in "
                     "its events line");
  for (size_t I = 0; I < Events.size(); ++I) {
    // A summary may leave out trailing zero counts.
    uint64_t N = 0;
    if (I < Counts.size() && Counts[I].getAsInteger(10, N))
      return makeError("valgrind's output '" + File +
                       "' has a bad summary count: " + Counts[I]);
    Totals[Events[I]] += N;
  }
  return Error::success();
}

namespace {
/// A cachegrind event and what one of it counts for in a metric.
struct WeightedEvent {
  StringRef Event;
  uint64_t Weight;
};
} // namespace

/// The cachegrind events a counted metric is the weighted sum of: the one
/// definition of every count, the estimated cycles included.
static ArrayRef<WeightedEvent> eventsOf(Metric M) {
  static const WeightedEvent Ir[] = {{"Ir", 1}}, I1[] = {{"I1mr", 1}},
                             D1[] = {{"D1mr", 1}, {"D1mw", 1}},
                             LL[] = {{"ILmr", 1}, {"DLmr", 1}, {"DLmw", 1}},
                             Branches[] = {{"Bcm", 1}, {"Bim", 1}};
  // The classic estimate from cachegrind's counts.
  static const WeightedEvent Cycles[] = {{"Ir", 1},
                                         {"I1mr", L1MissCycles},
                                         {"D1mr", L1MissCycles},
                                         {"D1mw", L1MissCycles},
                                         {"Bcm", L1MissCycles},
                                         {"Bim", L1MissCycles},
                                         {"ILmr", LLMissCycles},
                                         {"DLmr", LLMissCycles},
                                         {"DLmw", LLMissCycles}};
  switch (M) {
  case Metric::Instructions:
    return Ir;
  case Metric::I1Misses:
    return I1;
  case Metric::D1Misses:
    return D1;
  case Metric::LLMisses:
    return LL;
  case Metric::Mispredicts:
    return Branches;
  case Metric::Cycles:
    return Cycles;
  case Metric::Cpu:
  case Metric::Wall:
    break;
  }
  return {};
}

std::string cyclesFormula() {
  // The events of each weight, in the order of the table.
  std::vector<std::pair<uint64_t, std::vector<StringRef>>> ByWeight;
  for (const WeightedEvent &E : eventsOf(Metric::Cycles)) {
    auto It = llvm::find_if(ByWeight,
                            [&](const auto &W) { return W.first == E.Weight; });
    if (It == ByWeight.end())
      ByWeight.push_back({E.Weight, {E.Event}});
    else
      It->second.push_back(E.Event);
  }
  std::string Text;
  for (const auto &[Weight, Events] : ByWeight) {
    std::string Sum = join(Events, " + ");
    if (!Text.empty())
      Text += " + ";
    if (Weight == 1)
      Text += Sum;
    else
      Text +=
          utostr(Weight) + " x " + (Events.size() > 1 ? "(" + Sum + ")" : Sum);
  }
  return Text;
}

std::vector<std::string> CacheGeometry::valgrindOptions() const {
  static const char *const Flags[] = {"--I1=", "--D1=", "--LL="};
  std::vector<std::string> Options;
  for (size_t I = 0; I < Levels.size() && I < 3; ++I)
    Options.push_back(std::string(Flags[I]) + utostr(Levels[I][0]) + "," +
                      utostr(Levels[I][1]) + "," + utostr(Levels[I][2]));
  return Options;
}

/// 32768 as "32 KiB", 1310720 as "1.25 MiB", 1000 as "1000 B".
static std::string bytes(uint64_t N) {
  for (auto [Unit, Name] : {std::pair<uint64_t, const char *>{1u << 20, "MiB"},
                            {1u << 10, "KiB"}}) {
    if (N < Unit || N * 100 % Unit)
      continue;
    uint64_t Hundredths = N * 100 / Unit;
    std::string Text = utostr(Hundredths / 100);
    if (uint64_t Fraction = Hundredths % 100)
      Text +=
          "." + StringRef(utostr(100 + Fraction)).drop_front().rtrim('0').str();
    return Text + " " + Name;
  }
  return utostr(N) + " B";
}

std::string CacheGeometry::describe() const {
  if (isHost())
    return "the host's caches, as valgrind reads them from the CPU";
  static const char *const Names[] = {"I1", "D1", "LL"};
  std::string Text;
  bool SameLine = true;
  for (size_t I = 0; I < Levels.size(); ++I) {
    Text += std::string(I ? ", " : "") + Names[I] + " " + bytes(Levels[I][0]) +
            " " + utostr(Levels[I][1]) + "-way";
    SameLine = SameLine && Levels[I][2] == Levels[0][2];
  }
  if (SameLine)
    Text += ", " + utostr(Levels[0][2]) + "-byte lines";
  else
    for (size_t I = 0; I < Levels.size(); ++I)
      Text += std::string(I ? ", " : "; lines ") + utostr(Levels[I][2]) + " B";
  return Text;
}

Expected<CacheGeometry> parseCacheGeometry(StringRef Text) {
  StringRef Given = Text;
  if (Text == "host")
    return CacheGeometry{"host", {}};
  std::string Name = "custom";
  if (Text == "server") {
    Text = ServerCacheGeometry;
    Name = "server";
  }
  auto Bad = [&](const Twine &Why) {
    return makeError("--cache-geometry '" + Given + "': " + Why +
                     "; give server, host, or I1:D1:LL, each SIZE,ASSOC,LINE "
                     "in bytes (e.g. " +
                     ServerCacheGeometry + ")");
  };
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ':');
  if (Parts.size() != 3)
    return Bad("not three caches");
  static const char *const Names[] = {"I1", "D1", "LL"};
  CacheGeometry G{Name, {}};
  for (size_t I = 0; I < 3; ++I) {
    SmallVector<StringRef, 3> Numbers;
    Parts[I].split(Numbers, ',');
    std::array<uint64_t, 3> Level = {};
    if (Numbers.size() != 3)
      return Bad(Twine(Names[I]) + " is not SIZE,ASSOC,LINE");
    for (size_t J = 0; J < 3; ++J)
      if (Numbers[J].trim().getAsInteger(10, Level[J]) || !Level[J])
        return Bad(Twine(Names[I]) + " has a bad number '" + Numbers[J] + "'");
    auto [Size, Assoc, Line] = Level;
    // What valgrind checks (cachegrind's cg-arch.c).
    if (!isPowerOf2_64(Line) || Line < 16)
      return Bad(Twine(Names[I]) + "'s line size is not a power of two of at "
                                   "least 16 bytes");
    if (Size % (Assoc * Line))
      return Bad(Twine(Names[I]) + "'s size is not a multiple of ASSOC x LINE");
    if (!isPowerOf2_64(Size / (Assoc * Line)))
      return Bad(Twine(Names[I]) + " has " + Twine(Size / (Assoc * Line)) +
                 " sets, not a power of two");
    G.Levels.push_back(Level);
  }
  return G;
}

Expected<MetricValues>
readCachegrindCounts(StringRef Dir, ArrayRef<Metric> Wanted, StringRef Log) {
  StringMap<uint64_t> Totals;
  unsigned Files = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(It->path());
    if (!Buf)
      return makeError("cannot read valgrind's output '" + It->path() +
                       "': " + Buf.getError().message());
    if (Error E = addCachegrindTotals((*Buf)->getBuffer(), It->path(), Totals))
      return E;
    ++Files;
  }
  if (EC || !Files)
    return makeError("valgrind wrote no instruction counts in '" + Dir +
                     "'; see " + Log);
  MetricValues Values = {};
  for (Metric M : Wanted) {
    // Summed as integers, rounded once.
    uint64_t Sum = 0;
    for (const WeightedEvent &E : eventsOf(M)) {
      auto It = Totals.find(E.Event);
      // Every file names the same events, so a missing one is missing in
      // all: valgrind did not simulate what the metric needs.
      if (It == Totals.end())
        return makeError("valgrind's output in '" + Dir + "' has no " +
                         E.Event + " count, which " + info(M).Name +
                         " needs; see " + Log);
      Sum += E.Weight * It->second;
    }
    Values[size_t(M)] = double(Sum);
  }
  return Values;
}

/// Runs the benchmark once in variant \p V's tree; returns its value by
/// metric: CPU and wall times in seconds, or (under valgrind) the counts.
static Expected<MetricValues> runOnce(const PerfOptions &C, const PerfResult &R,
                                      const VariantRecord &V,
                                      ArrayRef<std::string> Env) {
  std::string Dir = sys::path::parent_path(V.Tree).str();
  std::string Log = Dir + "/bench.log";
  std::vector<std::string> Command = C.Bench;
  std::string CountDir = Dir + "/cachegrind";
  bool Count = isCount(R.Chosen);
  if (Count) {
    // A file per process (%p), children included. The simulators are set
    // either way: before valgrind 3.21 the cache simulator is on by default
    // and triples the run's time.
    sys::fs::remove_directories(CountDir);
    if (std::error_code EC = sys::fs::create_directories(CountDir))
      return makeError("cannot create '" + CountDir + "': " + EC.message());
    std::string Sim = R.Simulated ? "yes" : "no";
    Command = {R.Valgrind,
               "--tool=cachegrind",
               "--cache-sim=" + Sim,
               "--branch-sim=" + Sim,
               "--trace-children=yes",
               "-q",
               "--cachegrind-out-file=" + CountDir + "/out.%p"};
    if (R.Simulated) {
      std::vector<std::string> Caches = R.Caches.valgrindOptions();
      Command.insert(Command.end(), Caches.begin(), Caches.end());
    }
    Command.insert(Command.end(), C.Bench.begin(), C.Bench.end());
  }
  auto Start = std::chrono::steady_clock::now();
  Expected<pid_t> Pid =
      startProcess(Command, V.Tree, Env, Log, Log,
                   /*OwnProcessGroup=*/false, "the benchmark");
  if (!Pid)
    return Pid.takeError();
  struct rusage Usage = {};
  int Status = *waitProcess(*Pid, /*Block=*/true, &Usage);
  double Wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Status != 0)
    return makeError("the benchmark failed in " + V.Id + "'s tree '" + V.Tree +
                     "' (" + describeWaitStatus(Status) +
                     "); the last lines of " + Log + ":\n" +
                     StringRef(lastLines(Log, 10)).rtrim('\n'));
  if (Count)
    return readCachegrindCounts(CountDir, R.Measured, Log);
  MetricValues Values = {};
  Values[size_t(Metric::Cpu)] =
      seconds(Usage.ru_utime) + seconds(Usage.ru_stime);
  Values[size_t(Metric::Wall)] = Wall;
  return Values;
}

Error measure(const PerfOptions &C, PerfResult &R) {
  std::vector<std::string> Env = environmentWith({EnvSeedFile}, {});
  bool Terminal = C.Progress.value_or(sys::Process::StandardErrIsDisplayed());
  size_t K = R.Builds.front().Variants.size();
  unsigned Rounds = C.Warmup + C.Runs;
  size_t PerRound = K * R.Builds.size();
  auto Start = std::chrono::steady_clock::now();
  noteStream() << "running '" << shellJoin(C.Bench) << "' "
         << (C.Warmup ? Twine(C.Warmup) + " + " : Twine()) << C.Runs << " time"
         << (Rounds == 1 ? "" : "s") << " in each of " << PerRound
         << " variant trees" << (C.Warmup ? " (warm-up first)" : "")
         << (!isCount(R.Chosen) ? ""
             : R.Simulated ? ", under valgrind with cache and branch simulation"
                           : ", under valgrind")
         << "\n";
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    bool Warm = Round < C.Warmup;
    for (size_t I = 0; I < K; ++I)
      for (size_t J = 0; J < R.Builds.size(); ++J) {
        // Alternate which build goes first, variant by variant and round by
        // round.
        size_t Which = (I + Round) % 2 ? R.Builds.size() - 1 - J : J;
        BuildResult &B = R.Builds[Which];
        if (Terminal) {
          errs() << "\r\033[Kdivtool perf: round " << Round + 1 << "/" << Rounds
                 << (Warm ? " (warm-up)" : "") << ", " << B.Variants[I].Id
                 << (B.Name == "build" ? "" : " of " + B.Name);
          errs().flush();
        }
        Expected<MetricValues> Values = runOnce(C, R, B.Variants[I], Env);
        if (!Values) {
          if (Terminal)
            errs() << "\r\033[K";
          return Values.takeError();
        }
        if (Warm)
          continue;
        for (Metric M : R.Measured)
          B.of(M).Runs[I].push_back((*Values)[size_t(M)]);
      }
    if (!Terminal && !Warm && Rounds > 1)
      noteStream() << "round " << Round + 1 << "/" << Rounds
             << " done, "
             << int(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Start)
                        .count())
             << " s elapsed\n";
  }
  if (Terminal)
    errs() << "\r\033[K";
  for (BuildResult &B : R.Builds)
    for (Metric M : R.Measured) {
      MetricData &D = B.of(M);
      for (size_t I = 0; I < K; ++I)
        D.Medians.push_back(median(D.Runs[I]));
      D.Sum = summarize(D.Medians, C.Confidence);
    }
  if (R.Builds.size() == 2)
    R.Welch = welchTest(R.Builds[0].medians(R.Chosen),
                        R.Builds[1].medians(R.Chosen), C.Confidence);
  return Error::success();
}

} // namespace divcc
