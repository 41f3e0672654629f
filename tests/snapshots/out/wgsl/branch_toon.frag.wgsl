// agal2spv: AGAL 2 fragment program, 26 tokens
@group(0) @binding(1) var<uniform> fc: array<vec4f, 64>;
@group(0) @binding(2) var fs0: texture_2d<f32>;
@group(0) @binding(18) var fs0_sampler: sampler;
@group(0) @binding(3) var fs1: texture_2d<f32>;
@group(0) @binding(19) var fs1_sampler: sampler;

struct agal_out {
    @location(0) oc0: vec4f,
}

@fragment
fn main(@location(0) v0: vec4f, @location(1) v1: vec4f, @location(2) v2: vec4f) -> agal_out {
    var ft0: vec4f;
    var ft1: vec4f;
    var ft2: vec4f;
    var ft3: vec4f;
    var oc0: vec4f;
    // 1: nrm ft0.xyz, v0.xyz
    ft0 = vec4f(normalize(v0.xyz), 0.0);
    // 2: dp3 ft1.x, ft0.xyz, fc0.xyz
    ft1.x = dot(ft0.xyz, fc[0].xyz);
    // 3: tex ft2, v2, fs0 <2d, linear, miplinear, repeat>
    ft2 = textureSample(fs0, fs0_sampler, v2.xy);
    // 4: mov ft3, fc1
    ft3 = fc[1];
    let t52 = textureSample(fs1, fs1_sampler, v2.xy); // 19: tex ft4, v2, fs1 <2d, nearest, mipnone, repeat> (hoisted: implicit LOD needs uniform control flow)
    if (ft1.x >= fc[2].x) { // 5: ifg ft1.x, fc2.x
        // 6: mov ft3, fc3
        ft3 = fc[3];
        if (ft1.x >= fc[2].y) { // 7: ifg ft1.x, fc2.y
            // 8: mov ft3, fc4
            ft3 = fc[4];
            if (ft1.x < fc[2].z) { // 9: ifl ft1.x, fc2.z
                // 10: mul ft3, ft3, v1
                ft3 = ft3 * v1;
            } else { // 11: els
                if (!(ft2.w == fc[2].w)) { // 12: ine ft2.w, fc2.w
                    // 13: add ft3, ft3, fc5
                    ft3 = ft3 + fc[5];
                } // 14: eif
            } // 15: eif
        } // 16: eif
    } else { // 17: els
        if (ft2.w == fc[2].w) { // 18: ife ft2.w, fc2.w
            // 19: tex ft4, v2, fs1 <2d, nearest, mipnone, repeat>
            // 20: mul ft3, ft4, fc6
            ft3 = t52 * fc[6];
        } else { // 21: els
            // 22: mul ft3, ft3, v1
            ft3 = ft3 * v1;
        } // 23: eif
    } // 24: eif
    // 25: mul ft2, ft2, ft3
    ft2 = ft2 * ft3;
    // 26: mov oc0, ft2
    oc0 = ft2;
    return agal_out(oc0);
}
