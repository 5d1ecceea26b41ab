#include "netbox_live.h"

#include "atomic_write.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"
#include "lean/plugin_loader.h"
#include "netbox.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace ctwin::app {

namespace {

using model::InputError;
using model::InputLocation;

InputError netboxError(const std::string& url, const std::string& problem) {
    return InputError(InputLocation{url, "NetBox API", "", "", ""}, problem);
}

/// The base URL without a trailing "/" or "/api"; http or https only.
std::string baseUrl(std::string url) {
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    if (url.size() >= 4 && url.compare(url.size() - 4, 4, "/api") == 0) url.resize(url.size() - 4);
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
        throw netboxError(url, "expected an http:// or https:// URL");
    return url;
}

struct Body {
    std::string data;
    bool tooLarge = false;
};

int onData(void* ctx, const char* p, unsigned long long bytes) {
    auto* b = static_cast<Body*>(ctx);
    if (b->data.size() + bytes > cost::netbox::kMaxPageFileBytes) {
        b->tooLarge = true;
        return 1; // stop the transfer
    }
    b->data.append(p, static_cast<size_t>(bytes));
    return 0;
}

using HttpGet = int (*)(const char*, const char*, long, long, int (*)(void*, const char*, unsigned long long),
                        void*, long*, int*, char*, unsigned long);

/// One GET through the http plugin (app/lean/http_plugin.cpp); returns the HTTP status and fills `body`.
/// Transport failures throw, naming the URL.
long get(const std::string& url, const NetBoxLiveOptions& o, Body& body) {
    const auto httpGet = pluginFunction<HttpGet>("http", "ctwin_http_get");
    std::string headers =
        (o.token.rfind("nbt_", 0) == 0 ? "Authorization: Bearer " : "Authorization: Token ") + o.token;
    headers += std::string(1, '\0') + "Accept: application/json" + std::string(2, '\0');
    long status = 0;
    int timedOut = 0;
    char error[256] = {};
    const int rc = httpGet(url.c_str(), headers.c_str(), o.connectTimeoutMs, o.requestTimeoutMs, onData,
                           &body, &status, &timedOut, error, sizeof error);
    if (body.tooLarge)
        throw netboxError(url, "the response is larger than " +
                                   std::to_string(cost::netbox::kMaxPageFileBytes >> 20) + " MiB");
    if (rc != 0 && timedOut)
        throw netboxError(url, "no answer within " + std::to_string(o.requestTimeoutMs / 1000) + " s");
    if (rc != 0) throw netboxError(url, std::string("cannot reach NetBox: ") + error);
    return status;
}

} // namespace

const std::vector<std::string>& netBoxLiveTypes() {
    static const std::vector<std::string> types = {
        "sites",       "locations", "rack-types",   "racks",           "power-panels",
        "power-feeds", "devices",   "device-types", "cooling-sources", "cooling-feeds"};
    return types;
}

std::string readNetBoxToken(const std::string& tokenFile) {
    std::string token;
    if (!tokenFile.empty()) {
        token = model::readInputFile(tokenFile, 4096, "token file");
        token = token.substr(0, token.find('\n'));
    } else if (const char* env = std::getenv("NETBOX_TOKEN")) {
        token = env;
    }
    while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t'))
        token.pop_back();
    if (token.empty())
        throw InputError(InputLocation{tokenFile, "NetBox API", "", "", "token"},
                         "no API token: give --token-file FILE or set NETBOX_TOKEN");
    for (const unsigned char c : token)
        if (c < 0x21 || c > 0x7e)
            throw InputError(InputLocation{tokenFile, "NetBox API", "", "", "token"},
                             "the token holds a space or control character");
    return token;
}

std::vector<std::string> fetchNetBox(const NetBoxLiveOptions& options, const std::string& folder) {
    namespace fs = std::filesystem;
    const std::string base = baseUrl(options.url);
    std::vector<std::string> log;
    for (const auto& type : netBoxLiveTypes()) {
        const std::string prefix = base + "/api/dcim/" + type + "/";
        std::string url = prefix + "?limit=1000";
        size_t pages = 0, objects = 0;
        while (!url.empty()) {
            if (++pages > cost::netbox::kMaxPagesPerType)
                throw netboxError(prefix,
                                  "more than " + std::to_string(cost::netbox::kMaxPagesPerType) + " pages");
            Body body;
            const long status = get(url, options, body);
            if (status == 404 && pages == 1 && type != "sites" && type != "racks") {
                log.push_back("NetBox has no dcim/" + type + "/ (HTTP 404): left out");
                break;
            }
            if (status == 401 || status == 403)
                throw netboxError(url, "NetBox refused the token (HTTP " + std::to_string(status) +
                                           "): check it and its read permission on dcim");
            if (status != 200) throw netboxError(url, "HTTP " + std::to_string(status));
            nlohmann::json page;
            try {
                page = model::parseJson<nlohmann::json>(body.data);
            } catch (const nlohmann::json::exception& e) {
                throw netboxError(url, "the answer is not JSON: " + model::jsonErrorText(e));
            }
            if (!page.is_object() || !page.contains("results") || !page["results"].is_array())
                throw netboxError(url, "not a NetBox list response (an object with a \"results\" array)");
            objects += page["results"].size();
            char name[16];
            std::snprintf(name, sizeof name, "%05zu.json", pages);
            const fs::path file = fs::path(folder) / "dcim" / type / name;
            fs::create_directories(file.parent_path());
            model::writeFileAtomic(file.string(), body.data);
            url.clear();
            if (page.contains("next") && page["next"].is_string()) {
                url = page["next"].get<std::string>();
                // Only further pages of the same list: never another host, path or scheme, so nothing
                // but a query may follow the list's own path (no "../", no fragment).
                if (url.rfind(prefix, 0) != 0 || url.size() == prefix.size() || url[prefix.size()] != '?' ||
                    url.find('#') != std::string::npos)
                    throw netboxError(prefix,
                                      "the next page '" + url + "' is outside " + prefix +
                                          " (set NetBox's BASE_PATH or use the URL NetBox answers with)");
            }
        }
        if (pages > 0 && (objects > 0 || type == "sites" || type == "racks"))
            log.push_back("fetched dcim/" + type + "/: " + std::to_string(objects) + " objects in " +
                          std::to_string(pages) + " page" + (pages == 1 ? "" : "s"));
    }
    return log;
}

} // namespace ctwin::app
