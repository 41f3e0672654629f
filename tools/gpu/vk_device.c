/* vk_device.c: the Vulkan set-up of vk_device.h. */
#include "vk_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t errsize, const char *what, VkResult r)
{
    snprintf(err, errsize, "vulkan: %s failed (VkResult %d)", what, (int)r);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    vk_device *d = user;
    d->messages++;
    fprintf(stderr, "vulkan validation (severity 0x%x, type 0x%x): %s\n", (unsigned)sev, (unsigned)type,
            data->pMessage);
    return VK_FALSE;
}

static bool has_layer(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *p = calloc(n ? n : 1, sizeof *p);
    bool found = false;
    if (p && vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

bool vk_device_has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
    bool found = false;
    if (p && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

static int create_instance(vk_device *d, const vk_device_options *o, char *err, size_t errsize)
{
    const char *layer = "VK_LAYER_KHRONOS_validation", *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (o->validation && !has_layer(layer)) {
        snprintf(err, errsize, "vulkan: %s is not installed", layer);
        return -1;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = o->app_name,
                             .apiVersion = o->api_version ? o->api_version : VK_API_VERSION_1_1};
    /* Every type, PERFORMANCE too where asked: a vertex output the fragment shader
     * does not consume is such a warning, and agal_upload's pairs must raise none. */
    VkDebugUtilsMessengerCreateInfoEXT mi = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       (o->performance_messages ? VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT : 0),
        .pfnUserCallback = on_message,
        .pUserData = d};
    /* Chained into the instance so messages from vkCreateInstance itself count. */
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = o->validation ? &mi : NULL,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = o->validation,
                               .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = o->validation,
                               .ppEnabledExtensionNames = &ext};
    VkResult r = vkCreateInstance(&ci, NULL, &d->instance);
    if (r != VK_SUCCESS) return set_err(err, errsize, "vkCreateInstance", r), -1;
    if (!o->validation) return 0;
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d->instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create || create(d->instance, &mi, NULL, &d->messenger) != VK_SUCCESS) {
        snprintf(err, errsize, "vulkan: cannot create the debug messenger");
        return -1;
    }
    return 0;
}

/* The graphics queue family of pd, or -1. */
static int graphics_family(VkPhysicalDevice pd)
{
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t f = 0; f < nq; f++)
        if (q[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) return (int)f;
    return -1;
}

int vk_device_pick(vk_device *d, const vk_device_options *o, const char *prefer, char *err, size_t errsize)
{
    if (create_instance(d, o, err, errsize)) return -1;
    VkPhysicalDevice pds[16];
    uint32_t n = 16;
    VkResult r = vkEnumeratePhysicalDevices(d->instance, &n, pds);
    bool preferred = false;
    for (uint32_t i = 0; (r == VK_SUCCESS || r == VK_INCOMPLETE) && i < n && !preferred; i++) {
        int family = graphics_family(pds[i]);
        if (family < 0) continue;
        preferred = prefer && vk_device_has_extension(pds[i], prefer);
        if (d->phys && !preferred) continue;
        d->phys = pds[i];
        d->family = (uint32_t)family;
    }
    if (!d->phys) {
        snprintf(err, errsize, "vulkan: no device with a graphics queue");
        return -1;
    }
    vkGetPhysicalDeviceProperties(d->phys, &d->props);
    vkGetPhysicalDeviceMemoryProperties(d->phys, &d->memory);
    return 0;
}

int vk_device_create(vk_device *d, const char *const *extensions, uint32_t nextensions, const void *next,
                     const VkPhysicalDeviceFeatures *features, char *err, size_t errsize)
{
    float prio = 1;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = d->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = next,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .enabledExtensionCount = nextensions,
                             .ppEnabledExtensionNames = extensions,
                             .pEnabledFeatures = features};
    VkResult r = vkCreateDevice(d->phys, &ci, NULL, &d->dev);
    if (r != VK_SUCCESS) return set_err(err, errsize, "vkCreateDevice", r), -1;
    vkGetDeviceQueue(d->dev, d->family, 0, &d->queue);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = d->family};
    r = vkCreateCommandPool(d->dev, &pi, NULL, &d->pool);
    if (r != VK_SUCCESS) return set_err(err, errsize, "vkCreateCommandPool", r), -1;
    return 0;
}

unsigned vk_device_close(vk_device *d)
{
    if (d->dev) {
        vkDeviceWaitIdle(d->dev);
        if (d->pool) vkDestroyCommandPool(d->dev, d->pool, NULL);
        vkDestroyDevice(d->dev, NULL);
    }
    if (d->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(d->instance, d->messenger, NULL);
    }
    if (d->instance) vkDestroyInstance(d->instance, NULL);
    unsigned n = d->messages;
    *d = (vk_device){0};
    return n;
}

int vk_device_memory_type(const vk_device *d, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < d->memory.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (d->memory.memoryTypes[i].propertyFlags & want) == want) return (int)i;
    return -1;
}

VkResult vk_device_alloc(const vk_device *d, VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory *out)
{
    int type = vk_device_memory_type(d, req.memoryTypeBits, want);
    if (type < 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
    return vkAllocateMemory(d->dev, &ai, NULL, out);
}
