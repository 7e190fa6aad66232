// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Declarations only: libiio is opened at run time (LibIIO.swift), when an IIO sensor
// is used, so the daemon does not load it and its dependencies at start. For each
// function we call, `NAME_fn` is the type of a pointer to it, for dlsym's result.
#include <iio.h>

#define TILT_IIO_FUNCTION(name) typedef __typeof__(&name) name##_fn

TILT_IIO_FUNCTION(iio_buffer_destroy);
TILT_IIO_FUNCTION(iio_buffer_end);
TILT_IIO_FUNCTION(iio_buffer_get_poll_fd);
TILT_IIO_FUNCTION(iio_buffer_refill);
TILT_IIO_FUNCTION(iio_buffer_set_blocking_mode);
TILT_IIO_FUNCTION(iio_buffer_start);
TILT_IIO_FUNCTION(iio_channel_attr_get_filename);
TILT_IIO_FUNCTION(iio_channel_attr_read);
TILT_IIO_FUNCTION(iio_channel_attr_write);
TILT_IIO_FUNCTION(iio_channel_disable);
TILT_IIO_FUNCTION(iio_channel_enable);
TILT_IIO_FUNCTION(iio_channel_find_attr);
TILT_IIO_FUNCTION(iio_channel_get_data_format);
TILT_IIO_FUNCTION(iio_channel_get_id);
TILT_IIO_FUNCTION(iio_channel_get_index);
TILT_IIO_FUNCTION(iio_channel_is_enabled);
TILT_IIO_FUNCTION(iio_channel_is_scan_element);
TILT_IIO_FUNCTION(iio_context_destroy);
TILT_IIO_FUNCTION(iio_context_find_device);
TILT_IIO_FUNCTION(iio_context_get_device);
TILT_IIO_FUNCTION(iio_context_get_devices_count);
TILT_IIO_FUNCTION(iio_create_local_context);
TILT_IIO_FUNCTION(iio_device_attr_read);
TILT_IIO_FUNCTION(iio_device_attr_write);
TILT_IIO_FUNCTION(iio_device_create_buffer);
TILT_IIO_FUNCTION(iio_device_find_attr);
TILT_IIO_FUNCTION(iio_device_find_channel);
TILT_IIO_FUNCTION(iio_device_get_channel);
TILT_IIO_FUNCTION(iio_device_get_channels_count);
TILT_IIO_FUNCTION(iio_device_get_id);
TILT_IIO_FUNCTION(iio_device_get_label);
TILT_IIO_FUNCTION(iio_device_get_name);
TILT_IIO_FUNCTION(iio_device_get_sample_size);
TILT_IIO_FUNCTION(iio_device_get_trigger);
TILT_IIO_FUNCTION(iio_device_is_trigger);
TILT_IIO_FUNCTION(iio_device_set_kernel_buffers_count);
TILT_IIO_FUNCTION(iio_device_set_trigger);
TILT_IIO_FUNCTION(iio_library_get_version);
