// libclustertwin-http.so: one HTTP GET through libcurl for `import-netbox --url` (app/netbox_live.h). Only
// this plugin links libcurl and the TLS stack behind it (about twenty libraries), so the lean CLI loads none
// of them unless it talks to a server. Plain C types cross the boundary.
#include "lean/plugin_abi.h"

#include <cstdio>
#include <cstring>
#include <curl/curl.h>
#include <mutex>

namespace {

struct Sink {
    int (*write)(void* ctx, const char* data, unsigned long long bytes); // nonzero: stop the transfer
    void* ctx;
};

size_t onData(char* p, size_t size, size_t n, void* user) {
    const auto* s = static_cast<Sink*>(user);
    return s->write(s->ctx, p, static_cast<unsigned long long>(size) * n) == 0 ? size * n : 0;
}

} // namespace

CTWIN_PLUGIN_EXPORT const char* ctwin_plugin_version() {
    return ctwin::app::kCtwinPluginInterface;
}

/// GETs `url` with the request headers `headers` (NUL-separated, ending with an empty one), no redirects,
/// http and https only, within the two timeouts. The body goes to `write` chunk by chunk (it returns nonzero
/// to stop). Returns 0 and the HTTP status in *status, or 1 (a transport failure, *timedOut set for a
/// timeout) with libcurl's message in `error` (errorSize bytes, NUL-terminated).
CTWIN_PLUGIN_EXPORT int ctwin_http_get(const char* url, const char* headers, long connectTimeoutMs,
                                       long requestTimeoutMs,
                                       int (*write)(void* ctx, const char* data, unsigned long long bytes),
                                       void* ctx, long* status, int* timedOut, char* error,
                                       unsigned long errorSize) {
    static std::once_flag init;
    std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    *status = 0, *timedOut = 0;
    CURL* h = curl_easy_init();
    if (!h) {
        std::snprintf(error, errorSize, "cannot start libcurl");
        return 1;
    }
    curl_slist* list = nullptr;
    for (const char* p = headers; *p; p += std::strlen(p) + 1)
        list = curl_slist_append(list, p);
    Sink sink{write, ctx};
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onData);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, requestTimeoutMs);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "clustertwin");
    const CURLcode rc = curl_easy_perform(h);
    int result = 0;
    if (rc == CURLE_OK) {
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    } else {
        *timedOut = rc == CURLE_OPERATION_TIMEDOUT;
        std::snprintf(error, errorSize, "%s", curl_easy_strerror(rc));
        result = 1;
    }
    curl_slist_free_all(list);
    curl_easy_cleanup(h);
    return result;
}
