#pragma once
// A live NetBox over its REST API: the object lists import-netbox reads, fetched read-only
// page by page into the folder layout the saved-responses import takes (cost/netbox.h,
// importNetBoxFolder), so one importer serves both. The GETs go through libclustertwin-http.so
// (app/lean/http_plugin.cpp, libcurl), loaded only when a URL is given; no Qt.
#include <string>
#include <vector>

namespace ctwin::app {

/// Where and how to reach NetBox. The token is never taken from the command line (other users see it in
/// the process list): `--token-file FILE` or $NETBOX_TOKEN.
struct NetBoxLiveOptions {
    std::string url;   // the NetBox base URL, http:// or https:// (a trailing "/" or "/api" is dropped)
    std::string token; // a v1 key ("Token <key>") or a v2 token starting nbt_ ("Bearer <token>")
    long connectTimeoutMs = 10000;  // to open the connection (and at most the request timeout)
    long requestTimeoutMs = 120000; // for one page, transfer included (import-netbox --timeout)
};

/// The object types fetched, in the order read (dcim/<type>/); sites and racks are required, the others
/// may be absent (an older NetBox answers 404 for rack-types, one before 4.7 for cooling-sources and
/// cooling-feeds).
const std::vector<std::string>& netBoxLiveTypes();

/// GETs <url>/api/dcim/<type>/?limit=1000 and each page's `next` into folder/dcim/<type>/00001.json ...
/// Bounded as the saved-response import (cost/netbox.h): 64 MiB per page, 10,000 pages per type. A `next`
/// outside <url>/api/dcim/<type>/ is refused (the client never follows NetBox to another host), as are
/// redirects. Errors (unreachable host, timeout, a refused token, HTTP errors, a page that is not a list
/// response) are model::InputError naming the URL; nothing is written outside `folder`. Returns the log.
std::vector<std::string> fetchNetBox(const NetBoxLiveOptions& options, const std::string& folder);

/// The token from a file (first line, trimmed; at most 4 KiB) or, with no file, $NETBOX_TOKEN; an
/// InputError when neither gives one.
std::string readNetBoxToken(const std::string& tokenFile);

} // namespace ctwin::app
