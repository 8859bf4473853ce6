// halo-sweep GENERATOR_EXE [sweep options]: sweeps a generator of any generator executable (one
// linked with Halo::halo_generator_main). The sweep runs inside that executable, in its --sweep
// mode, where the generator's registry and the JIT compiler are; this program only starts it.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
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
    execvp(argv[1], args.data());  // a name without a slash is looked up in PATH
    std::fprintf(stderr, "error: cannot run the generator executable '%s': %s\n", argv[1], std::strerror(errno));
    return 1;
}
