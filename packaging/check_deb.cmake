# ctest package_contents: cpack -G DEB into a scratch folder, dpkg -x the package, check its contents.
# Run as: cmake -DBINARY_DIR=<build> -DCPACK=<cpack> -DAPP_ID=<id> -P check_deb.cmake
set(_out ${BINARY_DIR}/package-test)
file(REMOVE_RECURSE ${_out})
file(MAKE_DIRECTORY ${_out})
execute_process(COMMAND ${CPACK} -G DEB -B ${_out} --config ${BINARY_DIR}/CPackConfig.cmake
                WORKING_DIRECTORY ${BINARY_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${out}\n${err}")
endif()
file(GLOB _debs ${_out}/*.deb)
list(LENGTH _debs _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${_out}, found: ${_debs}")
endif()
set(_root ${_out}/root)
execute_process(COMMAND dpkg-deb -x ${_debs} ${_root} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -x failed: ${err}")
endif()
execute_process(COMMAND dpkg-deb -f ${_debs} Package Depends OUTPUT_VARIABLE control)
message(STATUS "control:\n${control}")
if(NOT control MATCHES "Package: clustertwin" OR NOT control MATCHES "libqt6widgets6")
  message(FATAL_ERROR "control fields lack the package name or the Qt dependency:\n${control}")
endif()

set(_missing "")
foreach(f
    usr/bin/clustertwin
    usr/bin/clustertwin-cli
    usr/share/clustertwin/catalog.db
    usr/share/clustertwin/assumptions.json
    usr/share/clustertwin/catalog/racks.json
    usr/share/clustertwin/catalog/cooling.json
    usr/share/clustertwin/reference/index.json
    usr/share/applications/${APP_ID}.desktop
    usr/share/metainfo/${APP_ID}.metainfo.xml
    usr/share/mime/packages/clustertwin.xml
    usr/share/doc/clustertwin/manual.md
    usr/share/icons/hicolor/scalable/apps/clustertwin.svg
    usr/share/doc/clustertwin/copyright
    usr/share/doc/clustertwin/changelog.gz
    usr/share/man/man1/clustertwin.1.gz
    usr/share/man/man1/clustertwin-cli.1.gz)
  if(NOT EXISTS ${_root}/${f})
    list(APPEND _missing ${f})
  endif()
endforeach()
# Every reference design listed in the index is shipped.
file(READ ${_root}/usr/share/clustertwin/reference/index.json _index)
string(JSON _count LENGTH "${_index}")
math(EXPR _last "${_count} - 1")
foreach(i RANGE ${_last})
  string(JSON _file GET "${_index}" ${i} file)
  if(NOT EXISTS ${_root}/usr/share/clustertwin/reference/${_file})
    list(APPEND _missing usr/share/clustertwin/reference/${_file})
  endif()
endforeach()
file(GLOB _catalog ${_root}/usr/share/clustertwin/catalog/*.json)
list(LENGTH _catalog _ncat)
if(_ncat LESS 9)
  list(APPEND _missing "catalog/*.json (found ${_ncat}, expected 9)")
endif()
# clustertwin-cli's plugins (app/CMakeLists.txt), under <libdir>/clustertwin/plugins.
set(_plugins report render)
# The mpi plugin (explore --mpi) is built when CMake found MPI: then the package must carry it.
file(GLOB_RECURSE _mpi_built ${BINARY_DIR}/lib/*libclustertwin-mpi.so)
if(_mpi_built)
  list(APPEND _plugins mpi)
endif()
foreach(_plugin ${_plugins})
  file(GLOB_RECURSE _found ${_root}/usr/lib/*/libclustertwin-${_plugin}.so)
  if(NOT _found)
    list(APPEND _missing "usr/lib/.../clustertwin/plugins/libclustertwin-${_plugin}.so")
  endif()
endforeach()
if(_missing)
  message(FATAL_ERROR "missing from the package: ${_missing}")
endif()

# The packaged CLI finds the packaged data by itself, next to its executable (../share/clustertwin), from
# another working directory and with no CTWIN_DATA_DIR, and evaluates a packaged reference design with it.
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CTWIN_DATA_DIR ${_root}/usr/bin/clustertwin-cli version
                WORKING_DIRECTORY ${_out} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REAL_PATH ${_root}/usr/share/clustertwin _data)
string(FIND "${out}" "data: ${_data}\n" _at)
if(NOT rc EQUAL 0 OR _at LESS 0)
  message(FATAL_ERROR "packaged clustertwin-cli does not use the packaged data (${_data}):\n${out}${err}")
endif()
message(STATUS "packaged CLI: ${out}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CTWIN_DATA_DIR
                        ${_root}/usr/bin/clustertwin-cli evaluate ${_root}/usr/share/clustertwin/reference/vera-rubin-504.json
                WORKING_DIRECTORY ${_out} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "504")
  message(FATAL_ERROR "packaged clustertwin-cli failed on a packaged reference design: ${out}${err}")
endif()

# The packaged CLI is lean (no Qt, no VTK) and loads its report plugin from the package (../lib/clustertwin/plugins).
execute_process(COMMAND readelf -d ${_root}/usr/bin/clustertwin-cli OUTPUT_VARIABLE out)
if(out MATCHES "libQt6|libvtk|libmpi")
  message(FATAL_ERROR "packaged clustertwin-cli links Qt, VTK or MPI (plugins load them):\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CTWIN_DATA_DIR --unset=CTWIN_PLUGIN_DIR
                        ${_root}/usr/bin/clustertwin-cli report ${_root}/usr/share/clustertwin/reference/vera-rubin-504.json
                        --xlsx ${_out}/report.xlsx --samples 0
                WORKING_DIRECTORY ${_out} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${_out}/report.xlsx)
  message(FATAL_ERROR "packaged clustertwin-cli report (report plugin) failed: ${out}${err}")
endif()

find_program(DESKTOP_VALIDATE desktop-file-validate)
if(DESKTOP_VALIDATE)
  execute_process(COMMAND ${DESKTOP_VALIDATE} ${_root}/usr/share/applications/${APP_ID}.desktop
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "desktop-file-validate: ${out}${err}")
  endif()
endif()
find_program(APPSTREAMCLI appstreamcli)
if(APPSTREAMCLI)
  execute_process(COMMAND ${APPSTREAMCLI} validate --no-net ${_root}/usr/share/metainfo/${APP_ID}.metainfo.xml
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "appstreamcli validate: ${out}${err}")
  endif()
endif()
# The changelog's latest entry is this version (a version bump needs a changelog entry).
execute_process(COMMAND dpkg-deb -f ${_debs} Version OUTPUT_VARIABLE _version OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND gzip -dc ${_root}/usr/share/doc/clustertwin/changelog.gz OUTPUT_VARIABLE _changelog)
string(REGEX MATCH "^clustertwin \\(([^)]+)\\)" _head "${_changelog}")
if(NOT CMAKE_MATCH_1 STREQUAL _version)
  message(FATAL_ERROR "packaging/changelog starts at version '${CMAKE_MATCH_1}', the package is '${_version}'")
endif()

message(STATUS "package ${_debs}: contents ok")
file(REMOVE_RECURSE ${_root})

