/**************************************************************************
    Lightspark, a free flash player implementation

    Stage3D on the agal2spv library (ENABLE_AGAL2SPV): Program3D.upload through
    agal_upload, Context3D's sampler slots and Flash's checks. It uses no Lightspark
    type, so flashdisplay3d.cpp keeps the ActionScript side (ByteArrays, errors,
    render actions) and this file keeps the library's.

    This program is free software: you can redistribute it and/or modify
    it under the terms of the GNU Lesser General Public License as published by
    the Free Software Foundation, either version 3 of the License, or
    (at your option) any later version.
**************************************************************************/

#ifndef SCRIPTING_FLASH_DISPLAY3D_AGAL2SPV_H
#define SCRIPTING_FLASH_DISPLAY3D_AGAL2SPV_H 1

#include <agal/agal.h>
#include <agal/stage3d.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lightspark
{
namespace agal2spv
{

// An error Flash throws: its class ("Error", "ArgumentError", ...) and the message
// with its id ("Error #3631: Vertex shader type is not vertex.").
struct FlashError
{
	int id = 0;
	std::string errorClass;
	std::string message;
	void set(const agal_flash_error& e);
};

// Program3D's translation: one agal_context per Program3D, holding the last
// upload's shaders and programs until the Program3D goes.
class Program
{
public:
	Program();
	~Program();
	Program(const Program&) = delete;
	Program& operator=(const Program&) = delete;
	// Program3D.upload(vertexProgram, fragmentProgram) of a Context3D created with
	// contextProfile: GLSL ES 1.00 texts with Lightspark's names, or false and the
	// error Flash throws.
	bool upload(const uint8_t* vertex, size_t vertexSize, bool vertexBigEndian, const uint8_t* fragment,
		    size_t fragmentSize, bool fragmentBigEndian, agal_profile contextProfile, FlashError& error);
	bool uploaded() const { return up.vertex != nullptr; }
	const agal_upload_result& result() const { return up; }
	const char* text(agal_stage stage) const { return up.shaders[stage].text; }

private:
	agal_context* ctx;
	agal_upload_result up;
};

// Context3D's side: the sampler slots Flash keeps per Context3D (setProgram writes
// the program's tokens, setSamplerStateAt a slot) and the state its checks read.
class Context
{
public:
	Context() { setProfile("baseline"); }
	Context(const Context&) = delete; // state points to slots
	Context& operator=(const Context&) = delete;
	// Stage3D.requestContext3D's profile (Context3DProfile's name).
	void setProfile(const char* profileName);
	agal_profile profile() const { return programProfile; }
	void setProgram(const Program& program);
	void setSamplerState(unsigned slot, agal_sampler_state state) { agal_slots_set_state(&slots, slot, state); }
	// The sampler a draw samples fs<token.num> with: the slot's wrap, filter and mipmap.
	agal_sampler resolve(const agal_sampler& token) const { return agal_slots_resolve(&slots, &token); }
	// configureBackBuffer(width, height): false with Flash's 3780 or 3781.
	bool checkBackBuffer(int32_t width, int32_t height, FlashError& error) const;

private:
	agal_profile programProfile;
	agal_sampler_slots slots;
	agal_context3d_state state;
};

// A String argument of one of flash.display3D's enumeration classes (wrap, filter,
// vertex format, ...): its value, or false with Flash's 2007 or 2008 naming param.
bool checkEnum(agal_stage3d_enum which, const char* value, const char* param, unsigned& out, FlashError& error);

// An argument that must not be null (Program3D.upload's ByteArrays): false with
// Flash's 2007 naming param.
bool checkNonNull(const void* value, const char* param, FlashError& error);

// setProgramConstantsFromVector(programType, firstRegister, data, numRegisters) and
// ...FromByteArray(programType, firstRegister, numRegisters, data, byteArrayOffset)
// of a Context3D whose programs have profile's registers: the registers written,
// from first, 4 floats each in values, or false with Flash's 3669 (too little data)
// or 2006 (registers past the stage's constant file).
bool constantsFromVector(agal_profile profile, agal_stage stage, int32_t first, const std::vector<double>& data,
			 int32_t numRegisters, std::vector<float>& values, FlashError& error);
bool constantsFromBytes(agal_profile profile, agal_stage stage, int32_t first, int32_t numRegisters,
			const uint8_t* bytes, size_t size, uint32_t offset, std::vector<float>& values, FlashError& error);

// setSamplerStateAt's state as Lightspark's render action carries it, and back.
uint32_t packSamplerState(agal_sampler_state state);
agal_sampler_state unpackSamplerState(uint32_t packed);

// EngineData::exec_glSetTexParameters's arguments for a resolved sampler.
struct TexParameters
{
	int32_t lodBias;    // 0: the shader applies the token's bias
	uint32_t dimension; // 0 2D, 1 cube
	uint32_t filter;    // 0 nearest, 1 linear (anisotropic filters sample linearly)
	uint32_t mipmap;    // 0 none, 1 nearest, 2 linear
	uint32_t wrap;      // bit 0 repeat along u (S), bit 1 along v (T)
};
TexParameters texParameters(const agal_sampler& sampler);

// The render-to-texture y flip (vcPositionScale.y) and front face, as <agal/gl.h>
// gives them, without GL's headers: true is GL_CCW.
float yFlip(bool toTexture);
bool frontFaceCCW(bool toTexture);

} // namespace agal2spv
} // namespace lightspark

#endif /* SCRIPTING_FLASH_DISPLAY3D_AGAL2SPV_H */
