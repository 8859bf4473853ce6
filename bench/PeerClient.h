// Drives the Halide 14 peer (bench/halide_peer) over a pipe, so that its cases run interleaved
// with Halo's in the same benchmark run. The peer is a separate process because Halide 14
// brings its own LLVM.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bench {

class PeerClient {
public:
    // Starts the peer; ok() is false (and why() says why) if it cannot.
    explicit PeerClient(const std::string &path) {
        if (path.empty() || access(path.c_str(), X_OK) != 0) {
            why_ = "Halide 14 peer not built (install libhalide14-0-dev and rebuild): skipping Halide cases";
            return;
        }
        // A peer that dies mid-run must give an error message, not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN);
        int to_child[2], from_child[2];
        if (pipe(to_child) != 0) {
            why_ = "cannot create pipes for the Halide peer";
            return;
        }
        if (pipe(from_child) != 0) {
            close(to_child[0]);
            close(to_child[1]);
            why_ = "cannot create pipes for the Halide peer";
            return;
        }
        pid_ = fork();
        if (pid_ < 0) {
            for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) close(fd);
            why_ = "cannot start the Halide peer (fork failed)";
            return;
        }
        if (pid_ == 0) {
            dup2(to_child[0], 0);
            dup2(from_child[1], 1);
            close(to_child[1]);
            close(from_child[0]);
            execl(path.c_str(), path.c_str(), (char *)nullptr);
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        out_ = fdopen(to_child[1], "w");
        in_ = fdopen(from_child[0], "r");
    }
    ~PeerClient() {
        if (!out_) return;
        std::fprintf(out_, "quit\n");
        std::fflush(out_);
        std::fclose(out_);
        std::fclose(in_);
        waitpid(pid_, nullptr, 0);
    }
    bool ok() const { return out_ != nullptr; }
    const std::string &why() const { return why_; }

    // Sets up a case ("blur tiled 6400 4800"); returns its id (or -1, with why() set).
    int setup(const std::string &args, double *compile_ms) {
        std::istringstream r(ask("setup " + args));
        std::string word;
        int id = -1;
        r >> word;
        if (word != "ok") {
            why_ = "Halide peer: setup " + args + ": " + r.str();
            return -1;
        }
        r >> id >> *compile_ms;
        return id;
    }
    double run(int id) { return number(ask("run " + std::to_string(id))); }
    double checksum(int id) { return number(ask("checksum " + std::to_string(id))); }

private:
    pid_t pid_ = -1;
    FILE *out_ = nullptr, *in_ = nullptr;
    std::string why_;

    std::string ask(const std::string &line) {
        if (std::fprintf(out_, "%s\n", line.c_str()) < 0 || std::fflush(out_) != 0)
            throw std::runtime_error("Halide peer is gone (writing: " + line + ")");
        char buf[4096];
        if (!std::fgets(buf, sizeof buf, in_)) throw std::runtime_error("Halide peer exited during: " + line);
        return buf;
    }
    static double number(const std::string &answer) {
        std::istringstream r(answer);
        std::string word;
        double v = 0;
        r >> word >> v;
        if (word != "ms" && word != "sum") throw std::runtime_error("Halide peer answered: " + answer);
        return v;
    }
};

}  // namespace bench
