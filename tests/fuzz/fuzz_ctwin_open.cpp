// Fuzz target: opening a .ctwin document (a SQLite database) from arbitrary bytes. Any input either fails
// with model::InputError or loads a design that saves and opens again.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "design_file.h"
#include "design_json.h"
#include "fuzz_support.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    using namespace ctwin;
    static const std::string dir = [] {
        char tmpl[] = "/tmp/ctwin-fuzz-ctwin-XXXXXX";
        const char* d = ::mkdtemp(tmpl);
        return std::string(d ? d : "/tmp");
    }();
    const std::string path = dir + "/input.ctwin", saved = dir + "/saved.ctwin";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    model::Project p;
    try {
        p = store::loadCtwin(path, &fuzz::catalog());
    } catch (const model::InputError&) {
        std::remove(path.c_str());
        return 0;
    }
    std::remove(path.c_str());
    try {
        store::saveCtwin(p, saved);
        const model::Project back = store::loadCtwin(saved, &fuzz::catalog());
        if (model::dumpJson(model::projectToJson(back)) != model::dumpJson(model::projectToJson(p)))
            fuzz::finding(".ctwin open -> save -> open changed the design");
    } catch (const model::InputError& e) {
        fuzz::finding(std::string("a loaded .ctwin saved into a document that does not open: ") + e.what());
    }
    std::remove(saved.c_str());
    return 0;
}
