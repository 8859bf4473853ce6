// halo-sweep GENERATOR_EXE [sweep options]: sweeps a generator of any generator executable (one
// linked with Halo::halo_generator_main). The sweep runs inside that executable, in its --sweep
// mode, where the generator's registry and the JIT compiler are; this program only starts it,
// and checks that it did run a sweep (the sweep writes the file named by HALO_SWEEP_DONE_FILE).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "Sweep.h"

int main(int argc, char **argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::printf("%s", halo::sweep::sweep_usage("halo-sweep GENERATOR_EXE").c_str());
        std::printf("\nGENERATOR_EXE is a generator executable (linked with Halo::halo_generator_main); "
                    "`GENERATOR_EXE --sweep ...` is the same sweep.\n");
        return argc < 2 ? 2 : 0;
    }
    std::vector<char *> args;
    args.push_back(argv[1]);
    std::string mode = "--sweep";
    args.push_back(mode.data());
    for (int i = 2; i < argc; i++) args.push_back(argv[i]);
    args.push_back(nullptr);

    char done_file[] = "/tmp/halo_sweep_done_XXXXXX";
    int fd = mkstemp(done_file);
    if (fd < 0) {
        std::fprintf(stderr, "error: cannot create a temporary file: %s\n", std::strerror(errno));
        return 1;
    }
    close(fd);
    setenv("HALO_SWEEP_DONE_FILE", done_file, 1);
    std::fflush(nullptr);
    pid_t child = fork();
    if (child == 0) {
        execvp(argv[1], args.data());  // a name without a slash is looked up in PATH
        std::fprintf(stderr, "error: cannot run the generator executable '%s': %s\n", argv[1], std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) < 0) {
        std::fprintf(stderr, "error: cannot run the generator executable '%s': %s\n", argv[1], std::strerror(errno));
        std::remove(done_file);
        return 1;
    }
    std::string mark;
    std::ifstream(done_file) >> mark;
    std::remove(done_file);
    if (!WIFEXITED(status)) {
        std::fprintf(stderr, "error: the generator executable '%s' was killed by signal %d\n", argv[1], WTERMSIG(status));
        return 1;
    }
    const int code = WEXITSTATUS(status);
    if (code == 0 && mark != "ran") {
        std::fprintf(stderr,
                     "error: '%s' exited without running a sweep: is it a generator executable (linked with "
                     "Halo::halo_generator_main)?\n",
                     argv[1]);
        return 1;
    }
    return code;
}
