# The private half of rdma-core a provider needs, prepared once per dependency directory.
#
# Debian 12 ships libibverbs 44.0 without <infiniband/driver.h> & co., so the provider compiles
# against the system's *public* verbs headers (/usr/include/infiniband, the 44.0 layouts the
# installed library was built with) plus only the private headers and generated kernel-ABI structs
# of the rdma-core 56.1 source that scripts/setup.sh unpacks.  mrc_provider.c pins every private
# layout this mix relies on with static asserts.
#
# In:  MRC_RDMA_CORE_SRC    the unpacked rdma-core-56.1 tree
#      MRC_RDMA_CORE_BUILD  where to configure it and stage the headers (kept across builds)
# Out: MRC_RDMA_PRIVATE_INCLUDE  an include directory with only
#          infiniband/{driver,kern-abi,cmd_ioctl,cmd_write}.h, kernel-abi/, rdma/, ccan/, util/,
#          config.h
#      MRC_MAKE_ABI_STRUCTS  rdma-core's buildlib/make_abi_structs.py

set(MRC_RDMA_PRIVATE_INCLUDE ${MRC_RDMA_CORE_BUILD}/mrc-private-include)
set(MRC_MAKE_ABI_STRUCTS ${MRC_RDMA_CORE_SRC}/buildlib/make_abi_structs.py)
set(_stamp ${MRC_RDMA_PRIVATE_INCLUDE}/.staged)

if(NOT EXISTS ${_stamp})
	set(_kabi ${MRC_RDMA_CORE_BUILD}/include/kernel-abi/ib_user_verbs.h)
	if(NOT EXISTS ${_kabi})
		message(STATUS "mrc: configuring rdma-core (kernel-ABI headers only) in "
			"${MRC_RDMA_CORE_BUILD}")
		execute_process(
			COMMAND ${CMAKE_COMMAND} -S ${MRC_RDMA_CORE_SRC} -B ${MRC_RDMA_CORE_BUILD}
				-G Ninja -DNO_PYVERBS=1 -DNO_MAN_PAGES=1 -DENABLE_STATIC=0
			OUTPUT_FILE ${MRC_RDMA_CORE_BUILD}.configure.log
			ERROR_FILE ${MRC_RDMA_CORE_BUILD}.configure.log
			RESULT_VARIABLE _rc)
		if(NOT _rc EQUAL 0)
			message(FATAL_ERROR "configuring rdma-core failed: see "
				"${MRC_RDMA_CORE_BUILD}.configure.log")
		endif()
		execute_process(COMMAND ninja -C ${MRC_RDMA_CORE_BUILD} kern-abi
			OUTPUT_QUIET RESULT_VARIABLE _rc)
		if(NOT _rc EQUAL 0 OR NOT EXISTS ${_kabi})
			message(FATAL_ERROR "ninja kern-abi in ${MRC_RDMA_CORE_BUILD} failed")
		endif()
	endif()

	set(_inc ${MRC_RDMA_PRIVATE_INCLUDE})
	file(REMOVE_RECURSE ${_inc})
	foreach(h driver.h kern-abi.h cmd_ioctl.h cmd_write.h)
		file(COPY ${MRC_RDMA_CORE_SRC}/libibverbs/${h} DESTINATION ${_inc}/infiniband)
	endforeach()
	file(COPY ${MRC_RDMA_CORE_BUILD}/include/kernel-abi/ib_user_verbs.h
		DESTINATION ${_inc}/kernel-abi)
	# The uAPI headers the generated kernel-abi structs were made from.
	file(COPY ${MRC_RDMA_CORE_SRC}/kernel-headers/rdma/ DESTINATION ${_inc}/rdma
		FILES_MATCHING PATTERN "*.h")
	file(COPY ${MRC_RDMA_CORE_SRC}/ccan/ DESTINATION ${_inc}/ccan FILES_MATCHING PATTERN "*.h")
	file(COPY ${MRC_RDMA_CORE_SRC}/util/compiler.h DESTINATION ${_inc}/util)
	file(COPY ${MRC_RDMA_CORE_BUILD}/include/config.h DESTINATION ${_inc})
	file(TOUCH ${_stamp})
endif()
