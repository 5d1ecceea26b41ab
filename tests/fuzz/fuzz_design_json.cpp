// Fuzz target: the JSON design loader with round trip. Any input either fails with model::InputError (a
// message for the user) or loads; a loaded design must write, read back and write again byte-identically
// (writer and reader agree), and the read-back design must validate against the catalog again.
#include <cstdint>
#include <string>

#include "design_json.h"
#include "fuzz_support.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    using namespace ctwin;
    const std::string text(reinterpret_cast<const char*>(data), size);
    model::Project p;
    try {
        p = model::projectFromJson(model::parseJsonText(text, "fuzz.json"), "fuzz.json", &fuzz::catalog());
    } catch (const model::InputError&) {
        return 0; // refused with a message: fine
    }
    const std::string once = model::dumpJson(model::projectToJson(p));
    model::Project back;
    try {
        back = model::projectFromJson(model::parseJsonText(once, "saved.json"), "saved.json", &fuzz::catalog());
    } catch (const model::InputError& e) {
        fuzz::finding(std::string("a loaded design saved into a file that does not open: ") + e.what());
    }
    if (model::dumpJson(model::projectToJson(back)) != once) fuzz::finding("save -> open -> save is not byte-stable");
    return 0;
}
