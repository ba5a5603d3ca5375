/* A QEMU TCG plugin that counts the guest instructions a program executes,
 * for bench/overhead.py --target NAME --instructions: qemu-user's CPU time
 * swings with the machine's load, the count does not. Each translation
 * block adds its instruction count to a counter every time it runs (an
 * inline add, no callback); at exit the total is written to QEMU's log
 * (-d plugin) as "insns: N". Blocks end only at branches, so a block runs
 * whole unless an instruction in it faults: exact for the benchmarks,
 * which do not fault. One counter for all threads: the benchmarks run one.
 *
 * Built against the qemu-plugin.h of the installed QEMU's own source
 * (bench/qemu_plugin.py). */
#include <inttypes.h>
#include <stdio.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t Executed;

static void translated(qemu_plugin_id_t Id, struct qemu_plugin_tb *Tb) {
  (void)Id;
  qemu_plugin_register_vcpu_tb_exec_inline(Tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                           &Executed,
                                           qemu_plugin_tb_n_insns(Tb));
}

static void exited(qemu_plugin_id_t Id, void *Data) {
  (void)Id;
  (void)Data;
  char Line[64];
  snprintf(Line, sizeof(Line), "insns: %" PRIu64 "\n", Executed);
  qemu_plugin_outs(Line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t Id,
                                           const qemu_info_t *Info, int Argc,
                                           char **Argv) {
  (void)Info;
  (void)Argc;
  (void)Argv;
  qemu_plugin_register_vcpu_tb_trans_cb(Id, translated);
  qemu_plugin_register_atexit_cb(Id, exited, NULL);
  return 0;
}
