/* vk_device.h: a Vulkan 1.1 instance and device for the project's offscreen
 * runners (the harness and the replay), made one way: the validation layer with a
 * messenger that counts (and prints) what it says, the first device with a
 * graphics queue (or the first with a preferred extension), one queue, a command
 * pool, and the device's memory types. What each runner enables on top (transform
 * feedback, instance divisors, anisotropy) it asks for between vk_device_pick and
 * vk_device_create. */
#ifndef AGAL_VK_DEVICE_H
#define AGAL_VK_DEVICE_H

#include <vulkan/vulkan.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct vk_device {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    unsigned messages; /* what the validation layer said (warnings and errors) */
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t family; /* the graphics queue's */
    VkDevice dev;
    VkQueue queue;
    VkCommandPool pool; /* command buffers may be reset one by one */
} vk_device;

typedef struct vk_device_options {
    const char *app_name;
    bool validation;           /* VK_LAYER_KHRONOS_validation, an error where it is missing */
    bool performance_messages; /* count the layer's performance warnings too */
    uint32_t api_version;      /* the instance's VkApplicationInfo.apiVersion (0: Vulkan 1.1) */
} vk_device_options;

/* The instance (and the messenger), then a device: the first with a graphics queue,
 * or the first of those with extension `prefer` (NULL: no preference). -1 with a
 * message in err; vk_device_close cleans up either way. */
int vk_device_pick(vk_device *d, const vk_device_options *o, const char *prefer, char *err, size_t errsize);
/* The logical device with the extensions named and the features chain given (the
 * VkDeviceCreateInfo's pNext and pEnabledFeatures), its queue and command pool. */
int vk_device_create(vk_device *d, const char *const *extensions, uint32_t nextensions, const void *next,
                     const VkPhysicalDeviceFeatures *features, char *err, size_t errsize);
/* Waits for the device and destroys everything; returns the messages counted. */
unsigned vk_device_close(vk_device *d);

bool vk_device_has_extension(VkPhysicalDevice pd, const char *name);
/* A memory type among `bits` with every flag of `want`; -1 where none has them. */
int vk_device_memory_type(const vk_device *d, uint32_t bits, VkMemoryPropertyFlags want);
/* Memory for req with the flags of want (VK_ERROR_OUT_OF_DEVICE_MEMORY: no such type). */
VkResult vk_device_alloc(const vk_device *d, VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory *out);

#endif
