// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * i2c-accel: an I2C accelerometer's data registers on i2c-stub, written through
 * /dev/i2c-N, so that the kernel's own driver reads the tilts the script plays.
 *
 *   i2c-accel -b BUS -a ADDR -r REG -w BYTES -e le|be -s SHIFT -n BITS [-u] [-x AXES]
 *             -d IIODIR | -g COUNTS [-p MS]     play (commands: tiltplay.h)
 *   i2c-accel -b BUS -a ADDR -P REG=VAL,...     clear all 256 registers, then preset
 *   i2c-accel -b BUS -a ADDR -K REG:MASK:SECS   clear MASK in REG for SECS seconds
 *                                               (a reset bit the probe waits on)
 *
 * The data: AXES axes (2: x, y; 3: x, y, z) from register REG, BYTES (1 or 2) each,
 * in the byte order given, the value in BITS bits (two's complement, or unsigned with
 * -u) shifted left by SHIFT. A reading in g becomes raw = g * 9.80665 / scale - offset
 * per axis, from the IIO device's own in_accel_[xyz_]scale and in_accel_[xyz_]offset
 * (read from IIODIR at `create`), so the values are what the driver reports back; a
 * driver that is no IIO device (lis3lv02d) gets -g, the raw counts per g instead.
 *
 * i2c-stub keeps one 16-bit word per register: a byte read returns its low half, a word
 * read the whole word, a block read the low halves of consecutive registers. So each
 * register r of the data gets the word byte[r] | byte[r+1] << 8, and every way a driver
 * reads them agrees (a big-endian word read swaps the same bytes back).
 */
#include "tiltplay.h"

#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int bus = -1, address = -1, reg = -1, width = 2, big_endian = 0, shift = 0, bits = 12;
static int is_unsigned = 0, axes = 3;
static const char *iio_dir;
static double counts_per_g;
static int fd = -1;
static double scale[3], offset[3];
static uint8_t image[258];

static int smbus(int write, uint8_t command, int size, union i2c_smbus_data *data)
{
    struct i2c_smbus_ioctl_data args = { (uint8_t)(write ? I2C_SMBUS_WRITE : I2C_SMBUS_READ), command,
                                         (uint32_t)size, data };
    return ioctl(fd, I2C_SMBUS, &args);
}

static int write_word(int r, uint16_t word)
{
    union i2c_smbus_data data = { .word = word };
    return smbus(1, (uint8_t)r, I2C_SMBUS_WORD_DATA, &data);
}

static void open_bus(void)
{
    char path[64];
    snprintf(path, sizeof path, "/dev/i2c-%d", bus);
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) die(path);
    /* FORCE: the driver has claimed the address. */
    if (ioctl(fd, I2C_SLAVE_FORCE, address) < 0) die("I2C_SLAVE_FORCE");
}

static double attribute(const char *axis, const char *what, double fallback)
{
    char path[512];
    const char *names[2] = { axis, NULL };
    for (int i = 0; i < 2; i++) {
        if (names[i]) snprintf(path, sizeof path, "%s/in_accel_%s_%s", iio_dir, names[i], what);
        else snprintf(path, sizeof path, "%s/in_accel_%s", iio_dir, what);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        double value;
        int ok = fscanf(f, "%lf", &value) == 1;
        fclose(f);
        if (ok) return value;
    }
    return fallback;
}

static int create(void)
{
    static const char *names[3] = { "x", "y", "z" };
    open_bus();
    for (int i = 0; i < axes; i++) {
        scale[i] = iio_dir ? attribute(names[i], "scale", 0) : 9.80665 / counts_per_g;
        offset[i] = iio_dir ? attribute(names[i], "offset", 0) : 0;
        if (scale[i] <= 0) {
            errno = EINVAL;
            die("no in_accel scale");
        }
    }
    return 0;
}

static int destroy(void)
{
    if (fd >= 0) close(fd);
    fd = -1;
    return 0;
}

static int send_reading(double x, double y, double z, uint64_t *written)
{
    double g[3] = { x, y, z };
    long low = is_unsigned ? 0 : -(1L << (bits - 1)), high = is_unsigned ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    for (int i = 0; i < axes; i++) {
        long raw = lround(g[i] * 9.80665 / scale[i] - offset[i]);
        raw = raw < low ? low : raw > high ? high : raw;
        uint32_t stored = ((uint32_t)raw & ((1u << bits) - 1)) << shift;
        uint8_t *at = image + i * width;
        if (width == 1) at[0] = (uint8_t)stored;
        else if (big_endian) { at[0] = (uint8_t)(stored >> 8); at[1] = (uint8_t)stored; }
        else { at[0] = (uint8_t)stored; at[1] = (uint8_t)(stored >> 8); }
    }
    *written = now_ns();
    for (int i = 0; i < axes * width; i++)
        if (write_word(reg + i, (uint16_t)(image[i] | image[i + 1] << 8)) < 0) return -1;
    return 0;
}

static int preset(char *list)
{
    open_bus();
    for (int r = 0; r < 256; r++)
        if (write_word(r, 0) < 0) die("clear");
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        unsigned r, v;
        if (sscanf(item, "%i=%i", &r, &v) != 2 || r > 255) { errno = EINVAL; die(item); }
        if (write_word((int)r, (uint16_t)v) < 0) die(item);
    }
    return 0;
}

static int keep_clear(const char *spec)
{
    unsigned r, mask;
    double seconds;
    if (sscanf(spec, "%i:%i:%lf", &r, &mask, &seconds) != 3) { errno = EINVAL; die(spec); }
    open_bus();
    /* The driver gives the bit a millisecond or two to clear: poll without pausing. */
    printf("ready\n");
    uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
    while (now_ns() < end) {
        union i2c_smbus_data data;
        if (smbus(0, (uint8_t)r, I2C_SMBUS_WORD_DATA, &data) == 0 && (data.word & mask))
            write_word((int)r, (uint16_t)(data.word & ~mask));
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct backend backend = { create, destroy, send_reading, 0.002 };
    char *presets = NULL;
    const char *clear = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "-b")) bus = atoi(v);
        else if (!strcmp(o, "-a")) address = (int)strtol(v, NULL, 0);
        else if (!strcmp(o, "-r")) reg = (int)strtol(v, NULL, 0);
        else if (!strcmp(o, "-w")) width = atoi(v);
        else if (!strcmp(o, "-e")) big_endian = !strcmp(v, "be");
        else if (!strcmp(o, "-s")) shift = atoi(v);
        else if (!strcmp(o, "-n")) bits = atoi(v);
        else if (!strcmp(o, "-u")) { is_unsigned = atoi(v); }
        else if (!strcmp(o, "-x")) axes = atoi(v);
        else if (!strcmp(o, "-d")) iio_dir = v;
        else if (!strcmp(o, "-g")) counts_per_g = atof(v);
        else if (!strcmp(o, "-P")) presets = argv[i + 1];
        else if (!strcmp(o, "-K")) clear = v;
        else if (!strcmp(o, "-p")) continue;   /* tiltplay's */
        else { fprintf(stderr, "i2c-accel: unknown option %s\n", o); return 64; }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (bus < 0 || address < 0) { fprintf(stderr, "i2c-accel: -b and -a are needed\n"); return 64; }
    if (presets) return preset(presets);
    if (clear) return keep_clear(clear);
    if (reg < 0 || (!iio_dir && counts_per_g <= 0) || (width != 1 && width != 2) || axes < 2 || axes > 3 || bits < 2
        || bits + shift > 8 * width) {
        fprintf(stderr, "i2c-accel: bad data layout\n");
        return 64;
    }
    return play(&backend, argc, argv);
}
