# cmake -DSRC=<python/intent> -DDST=<build/python/intent> -DSTAMP=<file> -P SyncPackage.cmake
# Mirrors every .py under SRC into DST (copy_if_different, so unchanged files keep their times)
# and removes .py files under DST that no longer exist under SRC. The extension module in DST is
# left alone.
file(GLOB_RECURSE src_files RELATIVE ${SRC} ${SRC}/*.py)
foreach(f IN LISTS src_files)
  get_filename_component(dir ${DST}/${f} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(COPY_FILE ${SRC}/${f} ${DST}/${f} ONLY_IF_DIFFERENT)
endforeach()
file(GLOB_RECURSE dst_files RELATIVE ${DST} ${DST}/*.py)
foreach(f IN LISTS dst_files)
  if(NOT EXISTS ${SRC}/${f})
    file(REMOVE ${DST}/${f})
  endif()
endforeach()
file(TOUCH ${STAMP})
