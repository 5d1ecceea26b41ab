// Fuzz target: the catalog loader (model::loadCatalogDirectory on a folder holding one catalog file, the
// path the build and the app use). Any input either fails with model::InputError or yields items that pass
// the catalog checks again.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "catalog.h"
#include "fuzz_support.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    using namespace ctwin;
    static const std::string dir = [] {
        char tmpl[] = "/tmp/ctwin-fuzz-catalog-XXXXXX";
        const char* d = ::mkdtemp(tmpl);
        return std::string(d ? d : "/tmp");
    }();
    const std::string path = dir + "/fuzz.json";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        const model::Catalog c = model::loadCatalogDirectory(dir);
        for (const auto& item : c.items()) {
            try {
                model::checkCatalogItem(item, path);
            } catch (const model::InputError& e) {
                fuzz::finding(std::string("a loaded catalog item fails its own check: ") + e.what());
            }
        }
    } catch (const model::InputError&) {
    }
    std::remove(path.c_str());
    return 0;
}
