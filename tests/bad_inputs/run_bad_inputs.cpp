// The bad-input catalogue (issue 14): runs every case of cases.tsv against clustertwin-cli and checks its
// exit code (3 bad data, 2 usage, 0 for the few that must now pass) and that its output holds the expected
// fragment (the file, entity or field named). Also fails a case that dies by a signal, prints a raw C++
// exception ("terminate called", "basic_filebuf") or runs past the time limit.
//
// cases.tsv: one case a line, tab-separated: NAME, EXIT, FRAGMENT, INPUT, ARGS ('#' starts a comment).
//   INPUT  -                          no input file
//          patch:BASE|PTR=JSON|...    data/reference/BASE.json with each JSON pointer set (=! removes it)
//          text:EXT|CONTENT           a file with CONTENT (\n, \t, \xHH escapes; <<N*TEXT>> repeats TEXT N
//                                     times, its escapes applied) and extension EXT
//          ctwin:BASE|SQL             BASE converted to .ctwin by the CLI, then SQL run on it
//          dir:NAME                   an empty directory named NAME
// FRAGMENT may list several parts separated by '&'; each must appear in the output.
//   ARGS   space-separated; {IN} the input, {TMP} the case's scratch folder, {REF} data/reference;
//          the escapes of CONTENT apply.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

struct Case {
    int line = 0;
    std::string name, fragment, input, args;
    int exit = 0;
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string unescape(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        // <<N*TEXT>>: TEXT repeated N times (deeply nested JSON without a megabyte line in cases.tsv).
        if (s.compare(i, 2, "<<") == 0) {
            const size_t star = s.find('*', i), close = s.find(">>", i);
            if (star != std::string::npos && close != std::string::npos && star < close) {
                // TEXT's own escapes apply (\n: many lines of a CSV or JSON-lines file).
                const std::string text = unescape(s.substr(star + 1, close - star - 1));
                for (long n = std::stol(s.substr(i + 2, star - i - 2)); n > 0; --n) out += text;
                i = close + 1;
                continue;
            }
        }
        if (s.compare(i, 2, "\\x") == 0 && i + 3 < s.size()) { // \xHH: one byte (not UTF-8 on purpose)
            out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
            i += 3;
            continue;
        }
        if (s[i] == '\\' && i + 1 < s.size()) {
            const char n = s[++i];
            out += n == 'n' ? '\n' : n == 't' ? '\t' : n == '0' ? '\0' : n;
        } else {
            out += s[i];
        }
    }
    return out;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

struct Run {
    int code = -1;
    int signal = 0;
    bool timedOut = false;
    std::string output;
};

pid_t start(const std::vector<std::string>& argv, const fs::path& scratch, int timeoutSeconds) {
    const fs::path outFile = scratch / ".output";
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int fd = ::open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        if (::chdir(scratch.c_str()) != 0) ::_exit(126);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::alarm(static_cast<unsigned>(timeoutSeconds)); // SIGALRM ends a hang
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    return pid;
}

Run finish(int status, const fs::path& scratch) {
    Run r;
    if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
        r.timedOut = r.signal == SIGALRM;
    }
    std::ifstream in(scratch / ".output", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    r.output = s.str();
    return r;
}

Run run(const std::vector<std::string>& argv, const fs::path& scratch, int timeoutSeconds) {
    int status = 0;
    ::waitpid(start(argv, scratch, timeoutSeconds), &status, 0);
    return finish(status, scratch);
}

bool runSql(const fs::path& db, const std::string& sql, std::string& error) {
    sqlite3* h = nullptr;
    if (sqlite3_open(db.c_str(), &h) != SQLITE_OK) {
        error = sqlite3_errmsg(h);
        sqlite3_close(h);
        return false;
    }
    char* err = nullptr;
    const bool ok = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK;
    if (!ok) error = err ? err : "?";
    sqlite3_free(err);
    sqlite3_close(h);
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: run_bad_inputs CLI cases.tsv DATA_DIR\n";
        return 2;
    }
    const std::string cli = fs::absolute(argv[1]).string();
    const fs::path table = argv[2], data = fs::absolute(argv[3]);
    const fs::path ref = data / "reference";
    const fs::path root = fs::temp_directory_path() / ("ctwin-bad-inputs-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);

    std::vector<Case> cases;
    {
        std::ifstream in(table);
        if (!in) {
            std::cerr << "cannot read " << table << "\n";
            return 2;
        }
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            ++n;
            if (line.empty() || line[0] == '#') continue;
            const auto f = split(line, '\t');
            if (f.size() != 5) {
                std::cerr << table << ":" << n << ": expected 5 tab-separated columns, found " << f.size() << "\n";
                return 2;
            }
            cases.push_back(Case{n, f[0], f[2], f[3], f[4], std::atoi(f[1].c_str())});
        }
    }
    const auto started = std::chrono::steady_clock::now();
    int failed = 0, index = 0;
    std::vector<std::string> names;
    struct Pending {
        const Case* c;
        std::vector<std::string> args;
        fs::path scratch;
    };
    std::vector<Pending> pending;
    for (const auto& c : cases) {
        ++index;
        for (const auto& n : names)
            if (n == c.name) {
                std::cerr << table << ":" << c.line << ": duplicate case name " << c.name << "\n";
                return 2;
            }
        names.push_back(c.name);
        const fs::path scratch = root / std::to_string(index);
        fs::create_directories(scratch);
        std::string in;
        std::string setupError;
        // ---- the input file ----
        if (c.input.rfind("patch:", 0) == 0) {
            const auto parts = split(c.input.substr(6), '|');
            std::ifstream src(ref / (parts[0] + ".json"));
            ojson doc = ojson::parse(src);
            for (size_t i = 1; i < parts.size(); ++i) {
                const auto eq = parts[i].find('=');
                const ojson::json_pointer ptr(parts[i].substr(0, eq));
                const std::string value = parts[i].substr(eq + 1);
                if (value == "!")
                    doc[ptr.parent_pointer()].erase(ptr.back());
                else
                    doc[ptr] = ojson::parse(value);
            }
            in = (scratch / "design.json").string();
            std::ofstream(in) << doc.dump(2) << "\n";
        } else if (c.input.rfind("text:", 0) == 0) {
            const auto bar = c.input.find('|');
            in = (scratch / ("input." + c.input.substr(5, bar - 5))).string();
            std::ofstream(in, std::ios::binary) << unescape(c.input.substr(bar + 1));
        } else if (c.input.rfind("ctwin:", 0) == 0) {
            const auto bar = c.input.find('|');
            in = (scratch / "design.ctwin").string();
            const Run conv = run({cli, "convert", (ref / (c.input.substr(6, bar - 6) + ".json")).string(), in}, scratch, 60);
            if (conv.code != 0) setupError = "convert failed: " + conv.output;
            else if (!runSql(in, unescape(c.input.substr(bar + 1)), setupError)) setupError = "SQL failed: " + setupError;
        } else if (c.input.rfind("dir:", 0) == 0) {
            in = (scratch / c.input.substr(4)).string();
            fs::create_directories(in);
        } else if (c.input != "-") {
            setupError = "unknown input kind '" + c.input + "'";
        }
        if (!setupError.empty()) {
            std::cout << "FAIL " << c.name << " (line " << c.line << "): setup: " << setupError << "\n";
            ++failed;
            continue;
        }
        // ---- the command ----
        std::vector<std::string> args{cli};
        for (auto a : split(c.args, ' ')) {
            if (a.empty()) continue;
            replaceAll(a, "{IN}", in);
            replaceAll(a, "{TMP}", scratch.string());
            replaceAll(a, "{REF}", ref.string());
            args.push_back(unescape(a)); // \t: a tab inside one argument
        }
        pending.push_back(Pending{&c, std::move(args), scratch});
    }
    // The commands, several at a time (CTWIN_BAD_INPUT_JOBS, default 4): each is a separate process.
    const char* jobsEnv = std::getenv("CTWIN_BAD_INPUT_JOBS");
    const size_t jobs = jobsEnv && std::atoi(jobsEnv) > 0 ? static_cast<size_t>(std::atoi(jobsEnv)) : 4;
    std::vector<std::pair<pid_t, const Pending*>> running;
    size_t next = 0;
    while (next < pending.size() || !running.empty()) {
        while (next < pending.size() && running.size() < jobs) {
            running.emplace_back(start(pending[next].args, pending[next].scratch, 20), &pending[next]);
            ++next;
        }
        int status = 0;
        const pid_t done = ::waitpid(-1, &status, 0);
        const auto it = std::find_if(running.begin(), running.end(), [&](const auto& r) { return r.first == done; });
        if (it == running.end()) continue;
        const Pending& p = *it->second;
        running.erase(it);
        const Case& c = *p.c;
        const Run r = finish(status, p.scratch);
        std::string why;
        if (r.timedOut)
            why = "timed out (20 s)";
        else if (r.signal)
            why = "killed by signal " + std::to_string(r.signal);
        else if (r.code != c.exit)
            why = "exit " + std::to_string(r.code) + ", expected " + std::to_string(c.exit);
        else if (r.output.find("terminate called") != std::string::npos ||
                 r.output.find("basic_filebuf") != std::string::npos)
            why = "raw exception text in the output";
        else
            for (const auto& part : split(c.fragment, '&')) // "A&B": both A and B must appear
                if (!part.empty() && r.output.find(part) == std::string::npos) why = "output lacks '" + part + "'";
        if (!why.empty()) {
            ++failed;
            std::cout << "FAIL " << c.name << " (line " << c.line << "): " << why << "\n  command:";
            for (size_t i = 1; i < p.args.size(); ++i) std::cout << " " << p.args[i];
            std::cout << "\n  output: " << r.output.substr(0, 600) << "\n";
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << cases.size() - static_cast<size_t>(failed) << " of " << cases.size() << " bad-input cases pass ("
              << seconds << " s)\n";
    if (failed == 0) fs::remove_all(root);
    return failed == 0 && cases.size() >= 150 ? 0 : 1;
}
