/* Preloaded by ./dev sanitize only: dlclose() keeps every module mapped.
 *
 * LeakSanitizer decides at process exit what is reachable by scanning the stacks, registers and the data
 * segments of the loaded modules. A module that was dlclose'd before then (Mesa's DRI driver, OpenMPI's
 * MCA components, Qt plugins) takes its data segment with it, so blocks that only its globals pointed to
 * look leaked, and their stacks print as "<unknown module>", which no suppression can match and no reader
 * can judge. With every module kept loaded, those false reports go away, and what remains names its
 * library: tests/lsan.supp suppresses system libraries by name, leaks in ClusterTwin code stay reported.
 *
 * The sanitizer runtime intercepts dlclose and forwards to the next definition in lookup order, which is
 * this one when the library is in LD_PRELOAD. Unloading only returns address space; each module's
 * destructors still run at exit. */

int dlclose(void* handle) {
    (void)handle;
    return 0;
}
