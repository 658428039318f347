# Writes ctorch.pc and ctorch-static.pc at install time (install(SCRIPT), after CMakeLists.txt's install(CODE)
# has set the CT_PC_ variables), when CMAKE_INSTALL_PREFIX is the final prefix (`cmake --install --prefix`).
#
# Both find their prefix from their own location (${pcfiledir}), so a tree installed anywhere, or moved,
# works. ctorch.pc's Libs carries -Wl,-rpath,${libdir} unless libdir is one that the toolchain searches by
# itself: a program built with `pkg-config --libs ctorch` against $HOME/.local or /opt/ctorch then runs without
# LD_LIBRARY_PATH. DESTDIR is honoured by file(INSTALL), as by every install() rule.
if(IS_ABSOLUTE "${CT_PC_LIBDIR}")
  set(libdir "${CT_PC_LIBDIR}")
else()
  set(libdir "${CMAKE_INSTALL_PREFIX}/${CT_PC_LIBDIR}")
endif()
get_filename_component(libdir "${libdir}" ABSOLUTE)
set(CT_PC_RPATH "-Wl,-rpath,\${libdir} ")
foreach(dir ${CT_PC_SYSTEM_LIBDIRS})
  get_filename_component(dir "${dir}" ABSOLUTE)
  if(dir STREQUAL libdir)
    set(CT_PC_RPATH "")
  endif()
endforeach()
# The path from the .pc's folder back to the prefix; an absolute libdir outside the prefix is kept as it is.
file(RELATIVE_PATH CT_PC_TO_PREFIX "${libdir}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" CT_PC_TO_PREFIX "${CT_PC_TO_PREFIX}")
if(IS_ABSOLUTE "${CT_PC_LIBDIR}")
  file(RELATIVE_PATH CT_PC_LIBDIR "${CMAKE_INSTALL_PREFIX}" "${CT_PC_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CT_PC_INCLUDEDIR}")
  file(RELATIVE_PATH CT_PC_INCLUDEDIR "${CMAKE_INSTALL_PREFIX}" "${CT_PC_INCLUDEDIR}")
endif()
foreach(template ${CT_PC_TEMPLATES})
  get_filename_component(name "${template}" NAME_WLE)
  configure_file("${template}" "${CT_PC_BUILD_DIR}/pc/${name}" @ONLY)
  file(INSTALL DESTINATION "${libdir}/pkgconfig" TYPE FILE FILES "${CT_PC_BUILD_DIR}/pc/${name}")
endforeach()
