// agal2spv: AGAL 3 fragment program, 24 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 200>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
    @location(1) oc1: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft4: vec4f;
    var oc0: vec4f;
    var oc1: vec4f;
    // 1: tex ft0, v0, fs0 <2d, linear, miplinear, repeat>
    ft0 = textureSample(fs0, fs0_sampler, v0.xy);
    // 2: mov ft1, ft0
    ft1 = ft0;
    let t37 = textureSample(fs1, fs1_sampler, v0.xy); // 12: tex ft3, v0, fs1 <2d, nearest, mipnone, repeat> (hoisted: implicit LOD needs uniform control flow)
    if (v1.x < fc[0].x) { // 3: ifl v1.x, fc0.x
        // 4: mul ft1, ft1, fc1
        ft1 = ft1 * fc[1];
    } else { // 5: els
        if (v1.x < fc[0].y) { // 6: ifl v1.x, fc0.y
            // 7: sin ft2.x, fc0.w
            ft2.x = sin(fc[0].w);
            // 8: abs ft2.x, ft2.x
            ft2.x = abs(ft2.x);
            // 9: mul ft1.xyz, ft1.xyz, ft2.x
            ft1 = vec4f(ft1.xyz * ft2.x, ft1.w);
        } else { // 10: els
            if (!(v1.y == fc[0].z)) { // 11: ine v1.y, fc0.z
                // 12: tex ft3, v0, fs1 <2d, nearest, mipnone, repeat>
                // 13: mul ft1, ft1, ft3
                ft1 = ft1 * t37;
            } else { // 14: els
                if (v1.z == v1.w) { // 15: ife v1.z, v1.w
                    // 16: neg ft1.xyz, ft1.xyz
                    ft1 = vec4f(-ft1.xyz, ft1.w);
                    // 17: add ft1.xyz, ft1.xyz, fc2.xyz
                    ft1 = vec4f(ft1.xyz + fc[2].xyz, ft1.w);
                } // 18: eif
            } // 19: eif
        } // 20: eif
    } // 21: eif
    // 22: mov oc0, ft1
    oc0 = ft1;
    // 23: mul ft4, v2, ft0.w
    ft4 = v2 * ft0.w;
    // 24: mov oc1, ft4
    oc1 = ft4;
    return agal_out(oc0, oc1);
}
