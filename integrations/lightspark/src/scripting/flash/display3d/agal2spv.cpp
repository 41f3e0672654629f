/**************************************************************************
    Lightspark, a free flash player implementation

    Stage3D on the agal2spv library (ENABLE_AGAL2SPV): see agal2spv.h.

    This program is free software: you can redistribute it and/or modify
    it under the terms of the GNU Lesser General Public License as published by
    the Free Software Foundation, either version 3 of the License, or
    (at your option) any later version.
**************************************************************************/

#include "scripting/flash/display3d/agal2spv.h"

// <agal/gl.h> is header-only over GL's own header; only its pure helpers are used
// here, since Lightspark reaches GL through EngineData.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <agal/gl.h>

#include <new>

using namespace lightspark::agal2spv;

void FlashError::set(const agal_flash_error& e)
{
	char buf[512];
	agal_flash_message(&e, buf, sizeof(buf));
	id = e.id;
	errorClass = agal_flash_class(&e);
	message = buf;
}

Program::Program() : ctx(agal_context_new(nullptr, nullptr)), up(agal_upload_result_init())
{
	if (!ctx)
		throw std::bad_alloc();
}

Program::~Program()
{
	agal_context_free(ctx);
}

bool Program::upload(const uint8_t* vertex, size_t vertexSize, bool vertexBigEndian, const uint8_t* fragment,
		     size_t fragmentSize, bool fragmentBigEndian, agal_profile contextProfile, FlashError& error)
{
	// Lightspark's draw path binds by name: the constants as arrays vc and fc
	// (uploaded whole from register 0), samplers sampler<n>, attributes va<n>, and
	// the render-to-texture flip as vcPositionScale.y.
	static const agal_names names = {{"vc", "fc"}, {nullptr, nullptr}, "sampler", "va", "v", "vcPositionScale", 'y'};
	agal_upload_options opt = agal_upload_options_init();
	opt.target = AGAL_TARGET_ESSL1;
	opt.names = &names;
	opt.vertex_big_endian = vertexBigEndian;
	opt.fragment_big_endian = fragmentBigEndian;
	opt.context_profile = contextProfile;
	agal_upload_result result = agal_upload_result_init();
	if (agal_upload(ctx, vertex, vertexSize, fragment, fragmentSize, &opt, &result) != AGAL_OK)
	{
		agal_flash_error e;
		agal_flash_error_of(agal_diag_get(ctx, 0), &e);
		error.set(e);
		return false;
	}
	// The previous upload's programs stay in the context: a draw already queued
	// on the render thread may still read them.
	up = result;
	return true;
}

void Context::setProfile(const char* profileName)
{
	unsigned value = AGAL_C3D_BASELINE;
	if (!agal_stage3d_find(AGAL_S3D_PROFILE, profileName, &value))
		value = AGAL_C3D_BASELINE;
	programProfile = AGAL_PROFILE_BASELINE;
	agal_profile_find(profileName, &programProfile);
	agal_context3d_state_init(&state, (agal_context3d_profile)value);
	agal_slots_init(&slots);
	state.slots = &slots;
}

void Context::setProgram(const Program& program)
{
	if (program.uploaded())
		agal_slots_set_program(&slots, program.result().fragment);
}

bool Context::checkBackBuffer(int32_t width, int32_t height, FlashError& error) const
{
	agal_flash_error e;
	if (agal_check_back_buffer(&state, width, height, &e) == 0)
		return true;
	error.set(e);
	return false;
}

bool lightspark::agal2spv::checkEnum(agal_stage3d_enum which, const char* value, const char* param, unsigned& out,
				     FlashError& error)
{
	agal_flash_error e;
	if (agal_check_enum(which, value, param, &out, &e) == 0)
		return true;
	error.set(e);
	return false;
}

bool lightspark::agal2spv::checkNonNull(const void* value, const char* param, FlashError& error)
{
	agal_flash_error e;
	if (agal_check_non_null(value, param, &e) == 0)
		return true;
	error.set(e);
	return false;
}

// The library writes into a whole constant file; the registers written are copied
// out, so a failed call leaves values empty.
static bool constantsOut(int id, const std::vector<float>& file, int32_t first, int64_t count,
			 std::vector<float>& values, FlashError& error)
{
	values.clear();
	if (id != 0)
	{
		agal_flash_error e = agal_flash_error();
		e.id = id;
		error.set(e);
		return false;
	}
	values.assign(file.begin() + 4 * first, file.begin() + 4 * (first + count));
	return true;
}

bool lightspark::agal2spv::constantsFromVector(agal_profile profile, agal_stage stage, int32_t first,
					       const std::vector<double>& data, int32_t numRegisters,
					       std::vector<float>& values, FlashError& error)
{
	std::vector<float> file(4 * agal_reg_count(profile, stage, AGAL_REG_CONSTANT));
	int id = agal_stage3d_constants_from_vector(profile, stage, first, data.data(), uint32_t(data.size()),
						    numRegisters, reinterpret_cast<float(*)[4]>(file.data()));
	return constantsOut(id, file, first, numRegisters == -1 ? int64_t(data.size() / 4) : numRegisters, values,
			    error);
}

bool lightspark::agal2spv::constantsFromBytes(agal_profile profile, agal_stage stage, int32_t first,
					      int32_t numRegisters, const uint8_t* bytes, size_t size, uint32_t offset,
					      std::vector<float>& values, FlashError& error)
{
	std::vector<float> file(4 * agal_reg_count(profile, stage, AGAL_REG_CONSTANT));
	int id = agal_stage3d_constants_from_bytes(profile, stage, first, numRegisters, bytes, size, offset,
						   reinterpret_cast<float(*)[4]>(file.data()));
	return constantsOut(id, file, first, numRegisters, values, error);
}

uint32_t lightspark::agal2spv::packSamplerState(agal_sampler_state state)
{
	return uint32_t(state.wrap) | uint32_t(state.filter) << 4 | uint32_t(state.mipmap) << 8;
}

agal_sampler_state lightspark::agal2spv::unpackSamplerState(uint32_t packed)
{
	agal_sampler_state state;
	state.wrap = packed & 0xf;
	state.filter = (packed >> 4) & 0xf;
	state.mipmap = (packed >> 8) & 0xf;
	return state;
}

TexParameters lightspark::agal2spv::texParameters(const agal_sampler& s)
{
	// <agal/gl.h>'s parameters (a cube map clamps); the LOD bias is in the shader,
	// so the texture gets none.
	agal_gl_sampler gl = agal_gl_sampler_params(&s, 0.0f);
	TexParameters p;
	p.lodBias = 0;
	p.dimension = s.dim == AGAL_DIM_CUBE ? 1 : 0;
	p.filter = gl.mag_filter == GL_LINEAR ? 1 : 0;
	p.mipmap = s.mipmap;
	p.wrap = (gl.wrap_s == GL_REPEAT ? 1u : 0u) | (gl.wrap_t == GL_REPEAT ? 2u : 0u);
	return p;
}

float lightspark::agal2spv::yFlip(bool toTexture)
{
	return agal_gl_yflip(toTexture);
}

bool lightspark::agal2spv::frontFaceCCW(bool toTexture)
{
	return agal_gl_front_face(toTexture) == GL_CCW;
}
