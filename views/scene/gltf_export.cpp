#include "gltf_export.h"

#include "atomic_write.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>
#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkGLTFExporter.h>
#include <vtkMapper.h>
#include <vtkPolyData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

namespace ctwin::views {

namespace {

bool endsWith(const std::string& s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(), [](char a, char b) {
        return a == static_cast<char>(std::tolower(static_cast<unsigned char>(b)));
    });
}

/// Standard base64 (RFC 4648 §4) decoding; stops at padding.
std::vector<std::uint8_t> decodeBase64(std::string_view in) {
    static const auto table = [] {
        std::array<int, 256> t{};
        t.fill(-1);
        const std::string_view chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (std::size_t i = 0; i < chars.size(); ++i)
            t[static_cast<unsigned char>(chars[i])] = static_cast<int>(i);
        return t;
    }();
    std::vector<std::uint8_t> out;
    out.reserve(in.size() * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        if (c == '=') break;
        const int v = table[static_cast<unsigned char>(c)];
        if (v < 0) continue;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xff));
        }
    }
    return out;
}

void put32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// Repacks a glTF with data-URI buffers into GLB (glTF 2.0 specification §4.4 "Binary glTF layout"):
/// a 12-byte header (magic "glTF", version 2, length), a JSON chunk padded with spaces and a BIN chunk
/// padded with zeros, both to 4 bytes; every buffer becomes a 4-byte-aligned slice of the one BIN buffer.
bool toGlb(const std::string& gltf, std::string& glb, std::string* error) {
    auto doc = nlohmann::json::parse(gltf, nullptr, false);
    if (doc.is_discarded()) {
        if (error) *error = "the glTF exporter produced invalid JSON";
        return false;
    }
    std::string bin;
    std::vector<std::size_t> offsets;
    for (auto& b : doc["buffers"]) {
        const std::string uri = b.value("uri", "");
        const auto comma = uri.find(',');
        if (uri.rfind("data:", 0) != 0 || comma == std::string::npos) {
            if (error) *error = "glTF buffer is not inline data";
            return false;
        }
        while (bin.size() % 4)
            bin.push_back('\0');
        offsets.push_back(bin.size());
        const auto bytes = decodeBase64(std::string_view(uri).substr(comma + 1));
        bin.append(bytes.begin(), bytes.end());
    }
    while (bin.size() % 4)
        bin.push_back('\0');
    for (auto& v : doc["bufferViews"]) {
        const auto i = v.value("buffer", 0u);
        v["byteOffset"] = v.value("byteOffset", std::size_t{0}) + (i < offsets.size() ? offsets[i] : 0);
        v["buffer"] = 0;
    }
    doc["buffers"] = nlohmann::json::array({{{"byteLength", bin.size()}}});
    std::string json = doc.dump();
    while (json.size() % 4)
        json.push_back(' ');

    glb.clear();
    put32(glb, 0x46546C67u); // "glTF"
    put32(glb, 2u);
    put32(glb, static_cast<std::uint32_t>(12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size())));
    put32(glb, static_cast<std::uint32_t>(json.size()));
    put32(glb, 0x4E4F534Au); // "JSON"
    glb += json;
    if (!bin.empty()) {
        put32(glb, static_cast<std::uint32_t>(bin.size()));
        put32(glb, 0x004E4942u); // "BIN\0"
        glb += bin;
    }
    return true;
}

/// Sets each buffer view's target (glTF 2.0 §5.11.4: ARRAY_BUFFER 34962 for vertex attributes,
/// ELEMENT_ARRAY_BUFFER 34963 for indices), which vtkGLTFExporter leaves out; the Khronos validator hints
/// BUFFER_VIEW_TARGET_MISSING without it. Returns the input unchanged when it is not valid JSON.
std::string withBufferTargets(const std::string& gltf) {
    auto doc = nlohmann::json::parse(gltf, nullptr, false);
    if (doc.is_discarded() || !doc.contains("bufferViews") || !doc.contains("accessors")) return gltf;
    auto& views = doc["bufferViews"];
    const auto& accessors = doc["accessors"];
    const auto mark = [&](const nlohmann::json& accessor, int target) {
        if (!accessor.is_number_unsigned() || accessor.get<std::size_t>() >= accessors.size()) return;
        const auto& a = accessors[accessor.get<std::size_t>()];
        if (!a.contains("bufferView") || a["bufferView"].get<std::size_t>() >= views.size()) return;
        views[a["bufferView"].get<std::size_t>()]["target"] = target;
    };
    const auto meshes = doc.find("meshes");
    if (meshes == doc.end() || !meshes->is_array()) return gltf;
    for (const auto& mesh : *meshes) {
        const auto prims = mesh.find("primitives");
        if (prims == mesh.end() || !prims->is_array()) continue;
        for (const auto& prim : *prims) {
            if (const auto attrs = prim.find("attributes"); attrs != prim.end() && attrs->is_object())
                for (const auto& accessor : *attrs)
                    mark(accessor, 34962);
            if (const auto indices = prim.find("indices"); indices != prim.end()) mark(*indices, 34963);
        }
    }
    return doc.dump();
}

/// The visible actors with a polygon-data input that has cells.
std::vector<vtkActor*> actorsWithGeometry(vtkRenderer* renderer) {
    std::vector<vtkActor*> out;
    vtkActorCollection* actors = renderer->GetActors();
    actors->InitTraversal();
    while (vtkActor* a = actors->GetNextActor()) {
        auto* pd = a->GetMapper() ? vtkPolyData::SafeDownCast(a->GetMapper()->GetInput()) : nullptr;
        if (a->GetVisibility() && pd && pd->GetNumberOfPoints() > 0 && pd->GetNumberOfCells() > 0)
            out.push_back(a);
    }
    return out;
}

} // namespace

std::size_t exportableCells(vtkRenderer* renderer) {
    if (!renderer) return 0;
    std::size_t n = 0;
    for (vtkActor* a : actorsWithGeometry(renderer))
        n += static_cast<std::size_t>(a->GetMapper()->GetInput()->GetNumberOfCells());
    return n;
}

bool writeGltf(vtkRenderer* renderer, const std::string& path, std::string* error) {
    if (!renderer) {
        if (error) *error = "nothing to export";
        return false;
    }
    const bool binary = endsWith(path, ".glb");
    if (!binary && !endsWith(path, ".gltf")) {
        if (error) *error = "glTF files end in .gltf or .glb: '" + path + "'";
        return false;
    }
    // Only actors with geometry, in a renderer of their own: an empty mesh would become an empty accessor.
    const auto actors = actorsWithGeometry(renderer);
    if (actors.empty()) {
        if (error) *error = "nothing to export: the scene has no buildings, halls, racks or pipes";
        return false;
    }
    auto scene = vtkSmartPointer<vtkRenderer>::New();
    for (vtkActor* a : actors)
        scene->AddActor(a);
    scene->SetActiveCamera(renderer->GetActiveCamera());
    // The exporter walks a render window's renderers; the window is never shown or rendered.
    auto window = vtkSmartPointer<vtkRenderWindow>::New();
    window->AddRenderer(scene);
    auto exporter = vtkSmartPointer<vtkGLTFExporter>::New();
    exporter->SetRenderWindow(window);
    exporter->SetActiveRenderer(scene);
    exporter->InlineDataOn();
    const std::string gltf = exporter->WriteToString();
    window->RemoveRenderer(scene);

    const std::string json = withBufferTargets(gltf);
    std::string bytes = json;
    if (binary && !toGlb(json, bytes, error)) return false;
    try {
        model::SaveTemp temp(path);
        temp.write(bytes);
        temp.commit();
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

} // namespace ctwin::views
